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

Token subtrees (whitespace, comments, commas, operators: :data:`TOKEN_TYPES`, more than
half the nodes of typical code) are not entered when no visitor of the walk has a method
for any of them, which no built-in rule has: what those visitors see is unchanged.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import textwrap
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any, TypeVar, cast

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


def _token_types() -> frozenset[type[cst.CSTNode]]:
    """The node classes of libcst's ``op`` and ``whitespace`` modules and the brackets:
    nodes whose children are only such nodes again (``tests/checker/test_walk.py`` checks
    that on real code), so a walk that needs none of them can leave out their subtrees."""
    from libcst._nodes import op, whitespace

    found: set[type[cst.CSTNode]] = {
        cst.LeftParen,
        cst.RightParen,
        cst.LeftSquareBracket,
        cst.RightSquareBracket,
        cst.LeftCurlyBrace,
        cst.RightCurlyBrace,
    }
    for module in (op, whitespace):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, cst.CSTNode)
                and value.__module__ == module.__name__
                and not inspect.isabstract(value)
                and not value.__name__.startswith("_")
            ):
                found.add(value)
    return frozenset(found)


TOKEN_TYPES = _token_types()
_TOKEN_NAMES = frozenset(kind.__name__ for kind in TOKEN_TYPES)
_NOTHING: frozenset[type[cst.CSTNode]] = frozenset()
N = TypeVar("N", bound=cst.CSTNode)


def wants_tokens(method_names: Iterable[str]) -> bool:
    """Whether any of these ``visit_<Type>``/``leave_<Type>`` names is for a token type."""
    return any(
        name.startswith(("visit_", "leave_")) and name[6:] in _TOKEN_NAMES for name in method_names
    )


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node.children`` without building them: the direct child nodes, in order."""
    pushed: list[tuple[cst.CSTNode, None]] = []
    _pusher(type(node))(node, None, pushed.append, pushed.extend)
    return [child for child, _ in reversed(pushed)]


def nodes_of(root: cst.CSTNode, kind: type[N]) -> list[N]:
    """Every ``kind`` node in ``root`` (``root`` included), in the order :func:`visit`
    enters them (source order): the "every call/argument/assignment below" question
    without a visitor class of its own."""
    skip = _NOTHING if any(issubclass(token, kind) for token in TOKEN_TYPES) else TOKEN_TYPES
    found: list[N] = []
    stack: list[tuple[cst.CSTNode, None]] = [(root, None)]
    while stack:
        node, _ = stack.pop()
        if isinstance(node, kind):
            found.append(node)
        _pusher(type(node), skip)(node, None, stack.append, stack.extend)
    return found


Pusher = Callable[[cst.CSTNode, Any, Callable[[Any], None], Callable[[Any], None]], None]


@functools.cache
def _pusher(node_class: type[cst.CSTNode], skip: frozenset[type] = _NOTHING) -> Pusher:
    """A function pushing ``(child, tag)`` for each child of a ``node_class`` node onto a
    stack, last child first, generated per class with the fields unrolled: the walks'
    inner loop (one call per node of every file) without building a list of children.
    Children whose class is in ``skip`` are not pushed.

    A child field holds a node, a sequence of nodes, ``None`` or a ``MaybeSentinel``
    (tested on plain classes: ``isinstance(x, CSTNode)`` is an ABC check, slow)."""
    lines = ["def push(node, tag, push, extend):"]
    many = (
        "extend([(child, tag) for child in value[::-1] if child.__class__ not in skip])"
        if skip
        else "extend(zip(value[::-1], repeat(tag)))"
    )
    for name in reversed(child_fields(node_class)):
        lines += [
            f"    value = node.{name}",
            "    kind = value.__class__",
            "    if kind is tuple or kind is list:",
            "        if value:",
            f"            {many}",
            "    elif value is not None and kind not in ignored:",
            "        push((value, tag))",
        ]
    lines.append("    return None")
    namespace: dict[str, Any] = {
        "repeat": repeat,
        "skip": skip,
        "ignored": skip | {cst.MaybeSentinel},
    }
    exec(compile("\n".join(lines), f"<walk pusher for {node_class.__name__}>", "exec"), namespace)
    return cast(Pusher, namespace["push"])


def _is_attribute_hook(name: str) -> bool:
    """``visit_Call_func`` or ``leave_Call_func``, not ``visit_Call``."""
    if not name.startswith(("visit_", "leave_")):
        return False
    rest = name.split("_", 1)[1]
    return "_" in rest and rest[:1].isupper()


def _own_names(visitor_class: type) -> list[str]:
    """Attribute names defined below libcst's own visitor classes (whose stubs are no-ops).

    Not cached: rules define small visitor classes inside functions, a new class per call.
    """
    found: list[str] = []
    for klass in visitor_class.__mro__:
        if klass.__module__.startswith("libcst"):
            break
        found += vars(klass)
    return found


def visit(root: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """``root.visit(visitor)`` for a visitor that only reads: ``on_visit`` returning False
    skips the children, ``on_leave`` is called either way.

    A visitor with its own ``on_visit``/``on_leave`` sees token nodes too, unless its class
    sets ``needs_tokens = False`` (a promise that it ignores them); one with only
    ``visit_<Type>``/``leave_<Type>`` methods sees them only if it has a method for one."""
    names = _own_names(type(visitor))
    hooks = [name for name in names if _is_attribute_hook(name)]
    if hooks:
        raise TypeError(f"{type(visitor).__name__} defines attribute hooks {hooks}")
    if type(visitor).on_visit is _DEFAULT_ON_VISIT and type(visitor).on_leave is _DEFAULT_ON_LEAVE:
        _visit_by_kind(root, visitor, _NOTHING if wants_tokens(names) else TOKEN_TYPES)
        return
    skip = _NOTHING if getattr(visitor, "needs_tokens", True) else TOKEN_TYPES
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
            _pusher(type(node), skip)(node, False, stack.append, stack.extend)


_DEFAULT_ON_VISIT = cst.CSTVisitor.on_visit
_DEFAULT_ON_LEAVE = cst.CSTVisitor.on_leave


def _visit_by_kind(root: cst.CSTNode, visitor: cst.CSTVisitor, skip: frozenset[type]) -> None:
    """:func:`visit` for a visitor with only ``visit_<Type>``/``leave_<Type>`` methods:
    libcst's ``on_visit`` looks both up by name for every node; here once per node type,
    and nodes without a ``leave_`` method get no second stack entry."""
    entering: dict[type, Callable[[Any], bool | None] | None] = {}
    leaving: dict[type, Callable[[Any], None] | None] = {}
    pushers: dict[type, Pusher] = {}
    # (node, None) to enter a node, (None, node) to leave it.
    stack: list[tuple[cst.CSTNode | None, cst.CSTNode | None]] = [(root, None)]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node, leave = pop()
        if node is None:
            method = leaving[type(leave)]
            assert method is not None
            method(leave)
            continue
        kind = type(node)
        if kind not in entering:
            entering[kind] = getattr(visitor, f"visit_{kind.__name__}", None)
            leaving[kind] = getattr(visitor, f"leave_{kind.__name__}", None)
            pushers[kind] = _pusher(kind, skip)
        enter = entering[kind]
        if leaving[kind] is not None:
            push((None, node))
        if enter is None or enter(node) is not False:
            pushers[kind](node, None, push, extend)


def visit_batched(
    root: cst.CSTNode,
    visitors: Iterable[cst.BatchableCSTVisitor],
    owners: dict[int, cst.CSTNode] | None = None,
) -> None:
    """libcst's ``visit_batched`` for read-only visitors: each node's ``visit_<Type>`` of
    every visitor in order, then its children, then each ``leave_<Type>`` in order.

    ``owners``, if given, receives for every node below a module root (by ``id``) the
    top-level statement holding it (token nodes only when they are walked): what
    :func:`positions.locate` needs to generate code for only the statements that hold
    findings."""
    methods: dict[str, list[Callable[[Any], None]]] = {}
    for batchable in visitors:
        for name, method in batchable.get_visitors().items():
            if _is_attribute_hook(name):
                raise TypeError(f"{type(batchable).__name__}.{name}: attribute hooks unsupported")
            methods.setdefault(name, []).append(method)
    skip = _NOTHING if wants_tokens(methods) else TOKEN_TYPES
    none: list[Callable[[Any], None]] = []
    entering: dict[type, list[Callable[[Any], None]]] = {}
    leaving: dict[type, list[Callable[[Any], None]]] = {}
    pushers: dict[type, Pusher] = {}
    owned = owners if owners is not None else {}
    top_level = frozenset(map(id, root.body)) if isinstance(root, cst.Module) else frozenset()
    # Entries are (node, its top-level statement) to enter, or (None, node) to leave; a
    # node whose type no visitor leaves gets no leave entry (most types).
    stack: list[tuple[cst.CSTNode | None, cst.CSTNode | None]] = [(root, None)]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        node, top = pop()
        if node is None:
            assert top is not None
            for method in leaving[type(top)]:
                method(top)
            continue
        kind = type(node)
        if kind not in entering:
            entering[kind] = methods.get(f"visit_{kind.__name__}", none)
            leaving[kind] = methods.get(f"leave_{kind.__name__}", none)
            pushers[kind] = _pusher(kind, skip)
        for method in entering[kind]:
            method(node)
        if leaving[kind]:
            push((None, node))
        if top is None and id(node) in top_level:
            top = node
        if top is not None:
            owned[id(node)] = top
        pushers[kind](node, top, push, extend)
