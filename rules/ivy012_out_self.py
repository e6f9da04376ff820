"""IVY012: an instance method that writes its result over ``self`` with ``out=self``."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Example,
    FileUnderCheck,
    Rule,
    RuleContext,
    nodes_of,
)
from ivycheck.rules._ast_calls import FUNCTIONS, first_keyword_calls
from ivycheck.rules._ast_facts import FunctionNode, facts, wrapper_name
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._decorators import decorator_name

_ARRAY = "ivy/data_classes/array/elementwise.py"


def _self_name(node: cst.FunctionDef) -> str | None:
    """The name of the instance parameter of a method (``None`` for static/class methods)."""
    if any(decorator_name(d) in {"staticmethod", "classmethod"} for d in node.decorators):
        return None
    positional = (*node.params.posonly_params, *node.params.params)
    return positional[0].name.value if positional else None


_IN_PLACE_PROTOCOL = frozenset(
    {
        "__iadd__", "__isub__", "__imul__", "__imatmul__", "__itruediv__", "__ifloordiv__",
        "__imod__", "__ipow__", "__ilshift__", "__irshift__", "__iand__", "__ixor__",
        "__ior__", "__setitem__", "__delitem__",
    }
)  # fmt: skip
"""Python's data model: these methods exist to change the object they are called on."""


def _is_mutator(node: cst.FunctionDef, this: str) -> bool:
    """A method whose job is to write into its instance: one of the data model's in-place
    methods, or one that gives its caller nothing new back (every ``return`` is bare, or
    returns the instance itself)."""
    if node.name.value in _IN_PLACE_PROTOCOL:
        return True
    returns = [r for r in nodes_of(node.body, cst.Return) if _own(node, r)]
    return all(
        r.value is None or (isinstance(r.value, cst.Name) and r.value.value in (this, "None"))
        for r in returns
    )


def _own(method: cst.FunctionDef, returned: cst.Return) -> bool:
    """Whether ``returned`` belongs to ``method`` itself, not to a function defined in it."""
    nested = nodes_of(method.body, cst.FunctionDef)
    return not any(r is returned for inner in nested for r in nodes_of(inner.body, cst.Return))


def _ast_self_name(node: FunctionNode) -> str | None:
    """:func:`_self_name` on CPython's tree."""
    if any(wrapper_name(d) in {"staticmethod", "classmethod"} for d in node.decorator_list):
        return None
    positional = (*node.args.posonlyargs, *node.args.args)
    return positional[0].arg if positional else None


def _ast_is_mutator(node: FunctionNode, this: str) -> bool:
    """:func:`_is_mutator` on CPython's tree (``return None`` is a constant there)."""
    if node.name in _IN_PLACE_PROTOCOL:
        return True
    todo: list[ast.AST] = list(node.body)
    while todo:
        current = todo.pop()
        if isinstance(current, FUNCTIONS):
            continue  # its returns are its own
        if isinstance(current, ast.Return):
            value = current.value
            if not (
                value is None
                or (isinstance(value, ast.Name) and value.id in (this, "None"))
                or (isinstance(value, ast.Constant) and value.value is None)
            ):
                return False
        todo.extend(ast.iter_child_nodes(current))
    return True


class OutSelf(Rule):
    """An instance method must not pass ``out=self``.

    ``x.add(y)`` reads as "x plus y", and every caller expects a new array back. A method
    that calls ``ivy.add(self, x2, out=self)`` instead overwrites ``x`` in place, and with
    it every view of ``x`` and the base ``x`` is a view of: an innocent-looking expression
    silently changes data elsewhere. It also fails where the result does not fit ``self``:
    ``x.add(y)`` with ``y`` broadcasting to a larger shape, or a float result for an
    integer ``self``, raises instead of returning the new array.

    Forward the caller's buffer instead: take ``out=None`` and pass ``out=out``.

    Not flagged: a method whose job is to write into its instance. That is one of Python's
    in-place methods (``__iadd__`` and the other augmented assignments, ``__setitem__``,
    ``__delitem__``), or a method that hands its caller nothing new (every ``return`` is
    bare or returns the instance: ``def step(self, g): ivy.subtract(self, g, out=self)``).
    Writing ``self`` is what the caller asked for there. Frontends are not checked: NumPy itself
    implements ``a += b`` as ``np.add(a, b, out=a)``, and the NumPy frontend mirrors it.
    """

    CODE = "IVY012"
    LOCAL = True
    NAME = "out-self"
    MESSAGE = "Instance method passes `out=self`; forward the caller's `out` instead"
    PARTS = frozenset({"functional", "backend:*", "data_classes", "other"})
    TRIGGERS = ("out=",)
    VALID = (
        Example(
            """
            class Array:
                def add(self, x2, /, *, out=None):
                    return ivy.add(self, x2, out=out)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Array:
                def __iadd__(self, other):
                    return ivy.inplace_update(self, ivy.add(self, other))
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class ndarray:
                def __iadd__(self, value, /):
                    return np_frontend.add(self, value, out=self)
            """,
            path="ivy/functional/frontends/numpy/ndarray/ndarray.py",
        ),
        Example(
            """
            class Array:
                @staticmethod
                def static_add(self, x2, *, out=None):
                    return ivy.add(self, x2, out=out)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Array:
                def add(self, x2, *, out=None):
                    return ivy.add(self._data, x2, out=out if out is not None else None)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            def add(self, x2, *, out=None):
                return ivy.add(self, x2, out=out)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Container:
                def add(self, x2, *, out=None):
                    return self.cont_map(lambda v, _: ivy.add(v, x2), out=out)
            """,
            path="ivy/data_classes/container/elementwise.py",
        ),
        Example(
            """
            class Array:
                def __iadd__(self, other):
                    return ivy.add(self._data, other, out=self)


                def __setitem__(self, query, value):
                    ivy.scatter_nd(query, value, reduction="replace", out=self)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Model:
                def step(self, grad):
                    ivy.subtract(self, grad, out=self)


                def add_(self, other):
                    ivy.add(self, other, out=self)
                    return self
            """,
            path="project/model.py",
        ),
    )
    INVALID = (
        Example(
            """
            class Array:
                def add(self, x2, /):
                    return ivy.add(self, x2, out=self)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Array:
                def where(self, condition, other):
                    if condition is None:
                        return self
                    return ivy.where(condition, self, other, out=self)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Array:
                def clip(this, lo, hi):
                    return ivy.clip(this, lo, hi, out=this)
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class _ArrayWithElementwise:
                def abs(self):
                    def go():
                        return ivy.abs(self, out=self)
                    return go()
            """,
            path=_ARRAY,
        ),
        Example(
            """
            class Container:
                def sort(self, *, axis=-1):
                    return self.cont_map(lambda v, _: ivy.sort(v, axis=axis), out=self)
            """,
            path="ivy/data_classes/container/sorting.py",
        ),
        Example(
            """
            class Model:
                def step(self, grad):
                    updated = ivy.subtract(self, grad, out=self)
                    return updated.sum()
            """,
            path="project/model.py",
        ),
        Example(
            """
            class Array:
                @property
                def mT(self):
                    return ivy.matrix_transpose(self, out=self)
            """,
            path=_ARRAY,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, exactly: the same walk, keeping the instance
        parameter each function sees."""
        return next(_ast_out_selves(tree), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: the finding spans the ``out=`` keyword, which
        CPython's ``keyword`` spans as libcst's ``Arg`` (from ``out`` to the name's end,
        parentheses around the name included), in code points."""
        found = list(_ast_out_selves(tree))
        if not found:
            return []
        lines = Lines(file.source)
        findings: list[AstFinding] = []
        for keyword, this in found:
            span = node_span(lines, keyword)
            if span is None:
                return None  # (a parsed tree always has one)
            findings.append(AstFinding(*span, _message(this)))
        return findings

    def __init__(self, context: RuleContext) -> None:
        super().__init__(context)
        self._selves: list[str | None] = []
        """The instance parameter visible in each enclosing function (``None``: none)."""
        self._in_class_body: list[bool] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._in_class_body.append(True)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._in_class_body.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self._in_class_body and self._in_class_body[-1]:
            this = _self_name(node)
            self._selves.append(None if this is None or _is_mutator(node, this) else this)
        else:
            # a nested function sees the method's ``self`` unless it rebinds the name
            inherited = self._selves[-1] if self._selves else None
            names = {p.name.value for p in (*node.params.posonly_params, *node.params.params)}
            self._selves.append(None if inherited in names else inherited)
        self._in_class_body.append(False)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._selves.pop()
        self._in_class_body.pop()

    def visit_Call(self, node: cst.Call) -> None:
        current = self._selves[-1] if self._selves else None
        if current is None:
            return
        for arg in node.args:
            if (
                arg.keyword is not None
                and arg.keyword.value == "out"
                and isinstance(arg.value, cst.Name)
                and arg.value.value == current
            ):
                self.report(arg, _message(current))


def _message(this: str) -> str:
    """The finding for ``out=<this>``, ``this`` the method's instance parameter."""
    return (
        f"`out={this}` overwrites the instance the method was called on; "
        "take an `out` parameter and forward it (or use `ivy.inplace_update`)"
    )


def _ast_out_selves(tree: ast.Module) -> Iterator[tuple[ast.keyword, str]]:
    """Every ``out=<instance parameter>`` keyword ``OutSelf.visit_Call`` reports, with the
    parameter's name, on CPython's tree: the same walk, keeping the instance parameter each
    function sees (a method's own, unless it is static, a class method or a mutator; a
    nested function's enclosing one, unless a positional parameter rebinds the name)."""
    given = {
        k.value.id for _, k, _ in first_keyword_calls(tree, "out") if isinstance(k.value, ast.Name)
    }
    firsts = {
        positional[0].arg
        for function, _ in facts(tree).functions
        if (positional := (*function.args.posonlyargs, *function.args.args))
    }
    if not given & firsts:
        return  # no ``out=`` names any function's instance parameter
    # (node, the instance parameter visible there, directly in a class body?)
    todo: list[tuple[ast.AST, str | None, bool]] = [(tree, None, False)]
    while todo:
        node, current, in_class = todo.pop()
        if isinstance(node, ast.ClassDef):
            in_class = True
        elif isinstance(node, FUNCTIONS):
            if in_class:
                this = _ast_self_name(node)
                current = None if this is None or _ast_is_mutator(node, this) else this
            else:
                args = node.args
                if current in {a.arg for a in (*args.posonlyargs, *args.args)}:
                    current = None
            in_class = False
        elif isinstance(node, ast.Call) and current is not None:
            for k in node.keywords:
                if k.arg == "out" and isinstance(k.value, ast.Name) and k.value.id == current:
                    yield k, current
        todo.extend((child, current, in_class) for child in ast.iter_child_nodes(node))
