"""Read-only traversal of libcst trees, without libcst's per-node reconstruction.

libcst's ``node.visit(visitor)`` rebuilds every node it passes (``_visit_and_replace_children``
constructs and validates a new dataclass per node) even for a visitor that changes nothing.
For a checker that only reads, that is most of the rule phase: on a generated Ivy-style
tree it was three times the cost of parsing. These functions visit exactly the nodes
libcst visits, in the same order, with the same ``visit_*``/``leave_*`` semantics, and
build nothing.

The order of a node's children is libcst's own: read once per node class from the
``visit_*(self, "<field>", ...)`` calls of its ``_visit_and_replace_children`` (so a field
such as ``FunctionDef.decorators`` comes before ``name``, as in the source).
``tests/checker/test_walk.py`` checks node-for-node equality with libcst's traversal.
Attribute hooks (``visit_<Type>_<field>``) are not supported; :func:`visit` refuses a
visitor that defines one rather than silently skipping it.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import textwrap
from collections.abc import Callable, Iterable
from typing import Any

import libcst as cst

_VISIT_HELPERS = frozenset(
    {
        "visit_required",
        "visit_optional",
        "visit_sentinel",
        "visit_sequence",
        "visit_iterable",
        "visit_body_sequence",
        "visit_body_iterable",
    }
)


@functools.cache
def child_fields(node_class: type[cst.CSTNode]) -> tuple[str, ...]:
    """The fields of ``node_class`` that hold children, in libcst's visiting order."""
    try:
        source = textwrap.dedent(inspect.getsource(node_class._visit_and_replace_children))
    except (OSError, TypeError):
        return _fields_by_declaration(node_class)
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _VISIT_HELPERS
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ]
    calls.sort(key=lambda call: (call.lineno, call.col_offset))
    names = [call.args[1] for call in calls]
    return tuple(dict.fromkeys(str(name.value) for name in names if isinstance(name, ast.Constant)))


def _fields_by_declaration(node_class: type[cst.CSTNode]) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(node_class))


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node.children`` without building them: the direct child nodes, in order.

    A child field holds a node, a sequence of nodes, ``None`` or a ``MaybeSentinel``
    (type tests on plain classes: ``isinstance(x, CSTNode)`` is an ABC check, slow).
    """
    found: list[cst.CSTNode] = []
    for name in child_fields(type(node)):
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            found.extend(value)
        elif value is not None and kind is not cst.MaybeSentinel:
            found.append(value)
    return found


def _is_attribute_hook(name: str) -> bool:
    """``visit_Call_func`` or ``leave_Call_func``, not ``visit_Call``."""
    if not name.startswith(("visit_", "leave_")):
        return False
    rest = name.split("_", 1)[1]
    return "_" in rest and rest[:1].isupper()


def _attribute_hooks(visitor_class: type) -> list[str]:
    """Attribute hooks defined below libcst's own visitor classes (whose stubs are no-ops).

    Not cached: rules define small visitor classes inside functions, a new class per call.
    """
    found = []
    for klass in visitor_class.__mro__:
        if klass.__module__.startswith("libcst"):
            break
        found += [name for name in vars(klass) if _is_attribute_hook(name)]
    return found


def visit(root: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``root.visit(visitor)`` for a visitor that only reads: ``on_visit`` returning False
    skips the children, ``on_leave`` is called either way."""
    hooks = _attribute_hooks(type(visitor))
    if hooks:
        raise TypeError(f"{type(visitor).__name__} defines attribute hooks {hooks}")
    on_visit = visitor.on_visit
    on_leave = visitor.on_leave
    stack: list[tuple[cst.CSTNode, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            on_leave(node)
            continue
        stack.append((node, True))
        if on_visit(node):
            stack.extend((child, False) for child in reversed(children(node)))


def visit_batched(root: cst.CSTNode, visitors: Iterable[cst.BatchableCSTVisitor]) -> None:
    """libcst's ``visit_batched`` for read-only visitors: each node's ``visit_<Type>`` of
    every visitor in order, then its children, then each ``leave_<Type>`` in order."""
    methods: dict[str, list[Callable[[Any], None]]] = {}
    for batchable in visitors:
        for name, method in batchable.get_visitors().items():
            if _is_attribute_hook(name):
                raise TypeError(f"{type(batchable).__name__}.{name}: attribute hooks unsupported")
            methods.setdefault(name, []).append(method)
    none: list[Callable[[Any], None]] = []
    entering: dict[type, list[Callable[[Any], None]]] = {}
    leaving: dict[type, list[Callable[[Any], None]]] = {}
    stack: list[tuple[cst.CSTNode, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        kind = type(node)
        if done:
            for method in leaving[kind]:
                method(node)
            continue
        if kind not in entering:
            entering[kind] = methods.get(f"visit_{kind.__name__}", none)
            leaving[kind] = methods.get(f"leave_{kind.__name__}", none)
        for method in entering[kind]:
            method(node)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(children(node)))
