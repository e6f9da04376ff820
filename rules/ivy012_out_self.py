"""IVY012: an instance method that writes its result over ``self`` with ``out=self``."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules._ast_calls import FUNCTIONS, signatures
from ivycheck.rules._ast_facts import FunctionNode, child_nodes, facts, wrapper_name
from ivycheck.rules._ast_out_keyword import keyword_span
from ivycheck.rules._ast_source import Lines

_ARRAY = "ivy/data_classes/array/elementwise.py"


_IN_PLACE_PROTOCOL = frozenset(
    {
        "__iadd__", "__isub__", "__imul__", "__imatmul__", "__itruediv__", "__ifloordiv__",
        "__imod__", "__ipow__", "__ilshift__", "__irshift__", "__iand__", "__ixor__",
        "__ior__", "__setitem__", "__delitem__",
    }
)  # fmt: skip
"""Python's data model: these methods exist to change the object they are called on."""


def _self_name(node: FunctionNode) -> str | None:
    """The name of the instance parameter of a method (``None`` for static/class methods)."""
    if any(wrapper_name(d) in {"staticmethod", "classmethod"} for d in node.decorator_list):
        return None
    positional = (*node.args.posonlyargs, *node.args.args)
    return positional[0].arg if positional else None


def _is_mutator(node: FunctionNode, this: str) -> bool:
    """A method whose job is to write into its instance: one of the data model's in-place
    methods, or one that gives its caller nothing new back (every ``return`` of its own,
    not of a function defined in it, is bare or returns ``None`` or the instance itself)."""
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
        Example(
            """
            class Array:
                def abs(self):
                    def go(self):
                        return ivy.abs(self, out=self)
                    return go(1)

                @classmethod
                def zeros(cls, out):
                    return ivy.zeros(3, out=cls)
            """,
            path=_ARRAY,
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
            message="`out=self` overwrites the instance the method was called on",
            line=3,
            column=34,
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
            line=5,
            column=50,
        ),
        Example(
            """
            class Array:
                def clip(this, lo, hi):
                    return ivy.clip(this, lo, hi, out=this)
            """,
            path=_ARRAY,
            message="`out=this` overwrites",
            line=3,
            column=39,
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
            line=4,
            column=34,
        ),
        Example(
            """
            class Container:
                def sort(self, *, axis=-1):
                    return self.cont_map(lambda v, _: ivy.sort(v, axis=axis), out=self)
            """,
            path="ivy/data_classes/container/sorting.py",
            line=3,
            column=67,
        ),
        Example(
            """
            class Model:
                def step(self, grad):
                    updated = ivy.subtract(self, grad, out=self)
                    return updated.sum()
            """,
            path="project/model.py",
            line=3,
            column=44,
        ),
        Example(
            """
            class Array:
                @property
                def mT(self):
                    return ivy.matrix_transpose(self, out=self)
            """,
            path=_ARRAY,
            line=4,
            column=43,
        ),
        Example(
            """
            class Array:
                async def add(self, x2):
                    return ivy.add(self, "é€", x2, out=(self))
            """,
            path=_ARRAY,
            message="`out=self` overwrites",
            line=3,
            column=40,
        ),
        Example(
            """
            # the call below passes out= over several lines
            class Array:
                def add(self, x2):
                    return ivy.add(
                        self,
                        x2,
                        out  # the instance
                        =self,
                    )
            """,
            path=_ARRAY,
            line=7,
            column=13,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Reported at the ``out=`` keyword, which CPython's ``keyword`` spans from ``out``
        to the value's end (parentheses around the value included), in code points."""
        lines: Lines | None = None
        for keyword, this in _out_selves(tree):
            lines = lines or Lines(file.source)
            yield Finding(*keyword_span(lines, keyword), _message(this))


def _message(this: str) -> str:
    """The finding for ``out=<this>``, ``this`` the method's instance parameter."""
    return (
        f"`out={this}` overwrites the instance the method was called on; "
        "take an `out` parameter and forward it (or use `ivy.inplace_update`)"
    )


def _out_selves(tree: ast.Module) -> Iterator[tuple[ast.keyword, str]]:
    """Every ``out=<instance parameter>`` keyword, with the parameter's name: one walk,
    keeping the instance parameter each function sees (a method's own, unless it is static, a class method or a mutator; a
    nested function's enclosing one, unless a positional parameter rebinds the name)."""
    found = facts(tree)
    # (every ``out=`` keyword, a call's repeated ones too: a wider test is still a test)
    given = {k.value.id for _, k, _ in found.keyword_calls("out") if isinstance(k.value, ast.Name)}
    if not given or not any(s.first_positional in given for s in signatures(tree)):
        return  # no ``out=`` names any function's instance parameter
    # (node, the instance parameter visible there, directly in a class body?)
    todo: list[tuple[ast.AST, str | None, bool]] = [(tree, None, False)]
    while todo:
        node, current, in_class = todo.pop()
        if isinstance(node, ast.ClassDef):
            in_class = True
        elif isinstance(node, FUNCTIONS):
            if in_class:
                this = _self_name(node)
                current = None if this is None or _is_mutator(node, this) else this
            else:
                args = node.args
                if current in {a.arg for a in (*args.posonlyargs, *args.args)}:
                    current = None
            in_class = False
        elif isinstance(node, ast.Call) and current is not None:
            for k in node.keywords:
                if k.arg == "out" and isinstance(k.value, ast.Name) and k.value.id == current:
                    yield k, current
        todo.extend((child, current, in_class) for child in child_nodes(node))
