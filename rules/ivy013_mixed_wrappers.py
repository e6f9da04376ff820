"""IVY013: ``mixed_backend_wrappers`` that drop ``out`` or hold a bare string."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import Example, Rule
from ivycheck.rules._api_functions import out_param
from ivycheck.rules._ast_facts import setattr_call, top_level_functions
from ivycheck.rules._decorators import wrappers_of
from ivycheck.rules._names import dotted, module_level_statements

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck


def _string_items(value: cst.BaseExpression) -> list[str] | None:
    """The strings of a tuple/list/set literal; ``None`` when an element is not a string."""
    if not isinstance(value, cst.Tuple | cst.List | cst.Set):
        return None
    items: list[str] = []
    for element in value.elements:
        if not isinstance(element.value, cst.SimpleString | cst.ConcatenatedString):
            return None
        text = element.value.evaluated_value
        if not isinstance(text, str):
            return None
        items.append(text)
    return items


def _entries(value: cst.BaseExpression) -> dict[str, cst.BaseExpression] | None:
    """The keys of a ``{...}`` or ``dict(...)`` literal with their values."""
    found: dict[str, cst.BaseExpression] = {}
    if isinstance(value, cst.Dict):
        for element in value.elements:
            if not isinstance(element, cst.DictElement):
                return None
            key = element.key
            if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str):
                found[key.evaluated_value] = element.value
        return found
    if isinstance(value, cst.Call) and dotted(value.func) == "dict":
        for arg in value.args:
            if arg.keyword is None:
                return None
            found[arg.keyword.value] = arg.value
        return found
    return None


# Code several examples share (``Example(preamble=...)`` puts it before the example's own).
_LAYER_NORM = """
    @handle_exceptions
    @handle_nestable
    @handle_partial_mixed_function
    @inputs_to_ivy_arrays
    def layer_norm(x, idxs, /, *, eps=1e-5, out=None):
        return ivy.divide(x - ivy.mean(x), ivy.std(x) + eps, out=out)


    """
"""A mixed function with ``out``; its API path is not wrapped for ``out``."""

_F_WRAPPED_FOR_OUT = """
    @handle_partial_mixed_function
    @handle_out_argument
    def f(x, *, out=None):
        ...


    """
"""A mixed function with ``out``; ``handle_out_argument`` wraps its API path."""


_MIXED_BLEND = """
    @handle_partial_mixed_function
    def blend(x, y, weight, /, *, out=None):
        return ivy.add(x, ivy.multiply(weight, ivy.subtract(y, x)), out=out)


    blend.mixed_backend_wrappers = {
        "to_add": ("inputs_to_native_arrays", "outputs_to_ivy_arrays"),
        "to_skip": ("inputs_to_ivy_arrays",),
    }
    """
"""A mixed function with ``out`` whose backend path is not wrapped for it."""

_TORCH_BLEND = {
    "ivy/functional/backends/torch/experimental/elementwise.py": """
        def blend(x, y, weight, /, *, out=None):
            return torch.lerp(x, y, weight, out=out)
        """,
}
"""PyTorch's own ``blend``, which passes ``out`` on (so ``out`` is written there)."""

_NUMPY_BLEND_IGNORING_OUT = {
    "ivy/functional/backends/numpy/experimental/elementwise.py": """
        def blend(x, y, weight, /, *, out=None):
            return x + weight * (y - x)
        """,
}
"""NumPy's own ``blend``, which ignores ``out``."""

_BLEND_SET_TWICE = """
    @handle_partial_mixed_function
    def blend(x, y, weight, /, *, out=None):
        return ivy.add(x, ivy.multiply(weight, ivy.subtract(y, x)), out=out)


    blend.mixed_backend_wrappers = {
        "to_add": ("inputs_to_native_arrays", "outputs_to_ivy_arrays"),
        "to_skip": ("inputs_to_ivy_arrays",),
    }


    blend.mixed_backend_wrappers = {
        "to_add": ("handle_out_argument", "inputs_to_native_arrays", "outputs_to_ivy_arrays"),
        "to_skip": ("inputs_to_ivy_arrays",),
    }
    """
"""Set twice: the last setting, in force when the module has run, wraps for ``out``."""

_BLEND_SET_TWICE_LAST_DROPS = """
    @handle_partial_mixed_function
    def blend(x, y, weight, /, *, out=None):
        return ivy.add(x, ivy.multiply(weight, ivy.subtract(y, x)), out=out)


    blend.mixed_backend_wrappers = {
        "to_add": ("handle_out_argument", "inputs_to_native_arrays", "outputs_to_ivy_arrays"),
        "to_skip": ("inputs_to_ivy_arrays",),
    }


    blend.mixed_backend_wrappers = {
        "to_add": ("inputs_to_native_arrays", "outputs_to_ivy_arrays"),
        "to_skip": ("inputs_to_ivy_arrays",),
    }
    """
"""Set twice: the last setting, in force, does not wrap for ``out``."""


class MixedWrappers(Rule):
    """A mixed function's backend path must be wrapped for ``out`` too.

    A mixed function (``@handle_partial_mixed_function``) is compositional in the API and
    primary in the backends that ship their own implementation. When such a backend is
    used, Ivy re-wraps the function with ``mixed_backend_wrappers``: the wrappers in
    ``to_add`` are applied and those in ``to_skip`` are left out. If the function takes
    ``out`` and ``to_add`` lacks ``handle_out_argument``, ``out`` reaches the backend's
    implementation as it is: one that ignores it leaves the caller's buffer untouched on
    exactly that backend (the message names them, from the project index). Where every
    backend's own implementation passes ``out`` on (``torch.lerp(..., out=out)``), it is
    written, and nothing is reported.

    ``to_add`` and ``to_skip`` must be tuples. ``("inputs_to_ivy_arrays")`` is a string in
    parentheses, not a tuple: iterating over ``to_add`` then yields single letters instead
    of wrapper names, and ``wrapper in to_skip`` becomes a substring test that also skips
    any wrapper whose name happens to be part of the string. Add the trailing comma:
    ``("inputs_to_ivy_arrays",)``.

    A module that sets a function's ``mixed_backend_wrappers`` twice leaves the last
    setting in force: only that one is checked.
    """

    CODE = "IVY013"
    NAME = "mixed-wrappers"
    MESSAGE = (
        "`mixed_backend_wrappers` must list `handle_out_argument` in `to_add` for a function "
        "with `out`, as tuples"
    )
    PARTS = frozenset({"functional"})
    TRIGGERS = ("mixed_backend_wrappers",)
    NEEDS_INDEX = True
    FOLLOWS_CALLS = False  # a setting is judged by its function alone, not by its callees
    VALID = (
        Example(
            _MIXED_BLEND,
            files={
                **_TORCH_BLEND,
            },
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_out_argument", "inputs_to_native_arrays"),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            """
            def gelu(x, /, *, approximate=False):
                ...


            gelu.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = dict(
                to_add=["handle_backend_invalid", "handle_out_argument"],
                to_skip=["inputs_to_ivy_arrays"],
            )
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            setattr(layer_norm, "mixed_backend_wrappers", {
                "to_add": ("handle_out_argument",),
                "to_skip": ("inputs_to_ivy_arrays",),
            })
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": _OUT_WRAPPERS,
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": (
                    "handle_backend_invalid",
                    "handle_out_argument",  # writes out on the backend path
                ),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_F_WRAPPED_FOR_OUT,
            code="""
            f.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            """
            def f(x, *, out=None):
                ...


            f.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
            path="ivy/functional/backends/torch/layers.py",
        ),
        Example(_BLEND_SET_TWICE, files=_NUMPY_BLEND_IGNORING_OUT),
    )
    INVALID = (
        Example(
            _BLEND_SET_TWICE_LAST_DROPS,
            files=_NUMPY_BLEND_IGNORING_OUT,
            message="on numpy, whose own implementation ignores `out`, nothing writes `out`",
            line=13,
            column=16,
        ),
        Example(
            _MIXED_BLEND,
            files={
                **_TORCH_BLEND,
                "ivy/functional/backends/numpy/experimental/elementwise.py": """
                def blend(x, y, weight, /, *, out=None):
                    return x + weight * (y - x)
                """,
            },
            message="on numpy, whose own implementation ignores `out`, nothing writes `out`",
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_backend_invalid", "inputs_to_native_arrays"),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_out_argument",),
                "to_skip": ("inputs_to_ivy_arrays"),
            }
            """,
        ),
        Example(
            """
            def gelu(x, /, *, approximate=False):
                ...


            gelu.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays"),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": (),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_F_WRAPPED_FOR_OUT,
            code="""
            f.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("handle_out_argument",),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            setattr(layer_norm, "mixed_backend_wrappers", {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("inputs_to_ivy_arrays",),
            })
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = dict(
                to_add=["handle_backend_invalid"],
                to_skip=["inputs_to_ivy_arrays"],
            )
            """,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether a module-level ``mixed_backend_wrappers`` setting holds a bare string, or
        is set on a module-level function taking ``out`` whose ``to_add`` does not plainly
        list ``handle_out_argument`` and that some backend implements without using ``out``
        (or no backend implements): the check below without its other tests of the
        wrappers listed."""
        takes_out = {
            f.name
            for f in top_level_functions(tree)
            if any(a.arg == "out" for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs))
        }
        live: dict[str, ast.expr] = {}
        for statement in tree.body:
            found = _ast_assignment(statement)
            if found is not None:
                live[found[0]] = found[1]
        for function, value in live.items():
            if any(
                isinstance(entry, ast.JoinedStr)
                or (isinstance(entry, ast.Constant) and isinstance(entry.value, str))
                for entry in _ast_entries(value)
            ):
                return True
            if function not in takes_out or _plainly_adds_out_handling(value):
                continue
            implementations = file.index.implementations(function)
            if not implementations or not all(i.uses_out for i in implementations.values()):
                return True
        return False

    def visit_Module(self, node: cst.Module) -> None:
        functions = {
            statement.name.value: (
                out_param(statement.params) is not None,
                "handle_out_argument" in wrappers_of(statement, self.context),
            )
            for statement in node.body
            if isinstance(statement, cst.FunctionDef)
        }
        # A function's setting assigned twice is the last one's when the module has run.
        live: dict[str, cst.BaseExpression] = {}
        for small in module_level_statements(node):
            found = _assignment(small)
            if found is not None:
                live.pop(found[0], None)
                live[found[0]] = found[1]
        for function, value in live.items():
            self._check(function, value, functions)

    def _check(
        self, function: str, value: cst.BaseExpression, functions: dict[str, tuple[bool, bool]]
    ) -> None:
        entries = _entries(value)
        if entries is None:
            return
        for key in ("to_add", "to_skip"):
            entry = entries.get(key)
            if isinstance(entry, cst.SimpleString | cst.ConcatenatedString):
                self.report(
                    entry,
                    f"`{key}` of `{function}.mixed_backend_wrappers` is a string, not a tuple, "
                    "so membership is a substring test; add a trailing comma: "
                    f"`({self.context.code_for(entry.with_changes(lpar=[], rpar=[]))},)`",
                )
                return
        takes_out, wrapped = functions.get(function, (False, False))
        skipped = _string_items(entries["to_skip"]) if "to_skip" in entries else []
        if not takes_out or (wrapped and "handle_out_argument" not in (skipped or [])):
            return
        to_add = entries.get("to_add")
        wrappers = [] if to_add is None else _string_items(to_add)
        if wrappers is None or "handle_out_argument" in wrappers:
            return
        implementations = self.context.index.implementations(function)
        ignoring = [name for name, found in implementations.items() if not found.uses_out]
        if implementations and not ignoring:
            return  # every backend's own implementation writes ``out`` (passes it on)
        where = (
            f"on {', '.join(ignoring)}, whose own implementation ignores `out`,"
            if ignoring
            else "on a backend whose own implementation ignores `out`,"
        )
        self.report(
            to_add if to_add is not None else value,
            f"`{function}` takes `out`, but `to_add` of its `mixed_backend_wrappers` lacks "
            f"`handle_out_argument`: {where} nothing writes `out`; add it",
        )


def _ast_assignment(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    """:func:`_assignment` on ``ast``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "mixed_backend_wrappers"
            and isinstance(target.value, ast.Name)
        ):
            return target.value.id, statement.value
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        return setattr_call(statement.value, "mixed_backend_wrappers")
    return None


def _plainly_adds_out_handling(value: ast.expr) -> bool:
    """``{..., "to_add": (..., "handle_out_argument", ...), ...}`` with plain quoted keys
    and items (libcst's ``_entries`` and ``_string_items`` read them alike; a key or item
    made of adjacent strings is not plain here): the check below then reports nothing."""
    if not isinstance(value, ast.Dict) or None in value.keys:
        return False
    to_add = None
    for key, item in zip(value.keys, value.values, strict=True):
        if _plain_string(key) == "to_add":
            to_add = item
    return isinstance(to_add, ast.Tuple | ast.List | ast.Set) and any(
        _plain_string(element) == "handle_out_argument" for element in to_add.elts
    )


def _plain_string(node: ast.expr | None) -> str | None:
    """The value of a one-line string literal written as one quoted word (no prefix, no
    escapes, no adjacent strings: its span is the word and two quotes)."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return None
    if node.end_lineno != node.lineno or node.end_col_offset is None:
        return None
    plain = (
        node.value.isidentifier() and node.end_col_offset - node.col_offset == len(node.value) + 2
    )
    return node.value if plain else None


def _ast_entries(value: ast.expr) -> list[ast.expr]:
    """The values of ``to_add``/``to_skip`` in a ``{...}`` or ``dict(...)`` literal."""
    if isinstance(value, ast.Dict):
        return [
            v
            for k, v in zip(value.keys, value.values, strict=True)
            if isinstance(k, ast.Constant) and k.value in ("to_add", "to_skip")
        ]
    if isinstance(value, ast.Call):
        return [k.value for k in value.keywords if k.arg in ("to_add", "to_skip")]
    return []


def _assignment(small: cst.BaseSmallStatement) -> tuple[str, cst.BaseExpression] | None:
    """(function, value) for ``f.mixed_backend_wrappers = v`` and the ``setattr`` form."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        if (
            isinstance(target, cst.Attribute)
            and target.attr.value == "mixed_backend_wrappers"
            and isinstance(target.value, cst.Name)
        ):
            return target.value.value, small.value
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        call = small.value
        args = call.args
        if (
            dotted(call.func) == "setattr"
            and len(args) == 3
            and isinstance(args[0].value, cst.Name)
            and isinstance(args[1].value, cst.SimpleString)
            and args[1].value.evaluated_value == "mixed_backend_wrappers"
        ):
            return args[0].value.value, args[2].value
    return None
