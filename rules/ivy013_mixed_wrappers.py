"""IVY013: ``mixed_backend_wrappers`` that drop ``out`` or hold a bare string."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, FunctionSummary, Rule
from ivycheck.rules._ast_calls import (
    FUNCTIONS,
    function_wrappers,
    out_arg,
    wrapped_by_assignment,
)
from ivycheck.rules._ast_facts import dotted
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._ast_spans import string_literals, value_span, written
from ivycheck.rules._quote import quoted

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

_LACKS_ANYWHERE = "lacks `handle_out_argument`: on a backend whose own implementation ignores `out`"
"""The message's end where no backend of the example has its own implementation."""


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
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": (
                    "handle_"
                    "out_argument",
                ),
                "to_skip": ("inputs_to_ivy_arrays",),
            }
            """,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            setattr(layer_norm, "mixed_backend_" "wrappers", {"to_add": ()})
            """,
        ),
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
            line=7,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_backend_invalid", "inputs_to_native_arrays"),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
            message=_LACKS_ANYWHERE,
            line=10,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_out_argument",),
                "to_skip": ("inputs_to_ivy_arrays"),
            }
            """,
            message="`to_skip` of `layer_norm.mixed_backend_wrappers` is a string",
            line=11,
            column=17,
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
            message='add a trailing comma: `("inputs_to_native_arrays",)`',
            line=6,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": (),
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
            message=_LACKS_ANYWHERE,
            line=10,
            column=16,
        ),
        Example(
            preamble=_F_WRAPPED_FOR_OUT,
            code="""
            f.mixed_backend_wrappers = {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("handle_out_argument",),
            }
            """,
            message="`f` takes `out`, but `to_add`",
            line=8,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
            }
            """,
            message=_LACKS_ANYWHERE,
            line=9,
            column=37,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            setattr(layer_norm, "mixed_backend_wrappers", {
                "to_add": ("inputs_to_native_arrays",),
                "to_skip": ("inputs_to_ivy_arrays",),
            })
            """,
            line=10,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = dict(
                to_add=["handle_backend_invalid"],
                to_skip=["inputs_to_ivy_arrays"],
            )
            """,
            line=10,
            column=12,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": ("handle_out_argument",),
                "to_skip": ("inputs_to_ivy_arrays"
                            "handle_partial_mixed_function"),
            }
            """,
            message=(
                'add a trailing comma: `("inputs_to_ivy_arrays" "handle_partial_mixed_function",)`'
            ),
            line=11,
            column=17,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            setattr(layer_norm, "mixed_backend_wrappers", value={
                "to_add": ("inputs_to_native_arrays",),
            })
            """,
            message=_LACKS_ANYWHERE,
            line=10,
            column=16,
        ),
        Example(
            preamble=_LAYER_NORM,
            code="""
            layer_norm.mixed_backend_wrappers = {
                "to_add": (
                    "handle_backend_invalid",
                    ("inputs_to_native_arrays")
                ),
            }
            """,
            message=_LACKS_ANYWHERE,
            line=11,
            column=9,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each setting in force, judged by its function: a bare string first (reported
        at the string, as written), else a ``to_add`` of a function taking ``out`` that
        lists no ``handle_out_argument`` where the function is not otherwise wrapped for
        it (reported at ``to_add``, or at the whole value when it has none), unless every
        backend's own implementation writes ``out``."""
        lines = Lines(file.source)
        functions = {s.name: s for s in tree.body if isinstance(s, FUNCTIONS)}
        assigned: dict[str, list[str]] | None = None
        for function, value in _settings_in_force(tree, lines).items():
            entries = _entries(value, lines)
            if entries is None:
                continue
            bare = _bare_string(entries, lines)
            if bare is not None:
                key, string = bare
                span = value_span(lines, string)
                yield Finding(*span, _string_message(key, function, written(lines, span)))
                continue
            definition = functions.get(function)
            if definition is None or out_arg(definition) is None:
                continue
            if assigned is None:
                assigned = wrapped_by_assignment(tree)
            lacking = _lacking(entries, value, function_wrappers(tree, definition, assigned))
            if lacking is None:
                continue
            message = _lacks_message(function, file.index.implementations(function))
            if message is not None:
                yield Finding(*value_span(lines, lacking), message)


_ATTRIBUTE = "mixed_backend_wrappers"
_KEYS = ("to_add", "to_skip")
"""The entries read, in the order a bare string among them is looked for."""
_OUT_WRAPPER = "handle_out_argument"


def _string_message(key: str, function: str, written: str) -> str:
    """The finding for a bare string ``written`` (its text) as ``key``'s value."""
    return (
        f"`{key}` of `{function}.{_ATTRIBUTE}` is a string, not a tuple, "
        f"so membership is a substring test; add a trailing comma: `({quoted(written)},)`"
    )


def _lacks_message(function: str, implementations: Mapping[str, FunctionSummary]) -> str | None:
    """The finding for a ``to_add`` of ``function`` (taking ``out``) without
    ``handle_out_argument``, or ``None`` when every backend's own implementation writes
    ``out`` (passes it on)."""
    ignoring = [name for name, found in implementations.items() if not found.uses_out]
    if implementations and not ignoring:
        return None
    where = (
        f"on {', '.join(ignoring)}, whose own implementation ignores `out`,"
        if ignoring
        else "on a backend whose own implementation ignores `out`,"
    )
    return (
        f"`{function}` takes `out`, but `to_add` of its `{_ATTRIBUTE}` lacks "
        f"`{_OUT_WRAPPER}`: {where} nothing writes `out`; add it"
    )


def _settings_in_force(tree: ast.Module, lines: Lines) -> dict[str, ast.expr]:
    """Per function, the value of its module-level setting in force once the module has
    run: the last one (a setting in a block or a function is not read)."""
    live: dict[str, ast.expr] = {}
    for statement in tree.body:
        found = _setting(statement, lines)
        if found is not None:
            live.pop(found[0], None)
            live[found[0]] = found[1]
    return live


def _setting(statement: ast.stmt, lines: Lines) -> tuple[str, ast.expr] | None:
    """``(function, value)`` of ``f.mixed_backend_wrappers = value`` (one target) and of
    ``setattr(f, "mixed_backend_wrappers", value)``, whose three arguments are read in
    the order written, keyword or ``*`` alike, and whose name is one string literal."""
    if isinstance(statement, ast.Assign):
        target = statement.targets[0]
        if (
            len(statement.targets) == 1
            and isinstance(target, ast.Attribute)
            and target.attr == _ATTRIBUTE
            and isinstance(target.value, ast.Name)
        ):
            return target.value.id, statement.value
        return None
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    if not isinstance(call.func, ast.Name) or call.func.id != "setattr":
        return None
    args = _arguments(call)
    if (
        len(args) == 3
        and isinstance(args[0], ast.Name)
        and isinstance(args[1], ast.Constant)
        and args[1].value == _ATTRIBUTE
        and string_literals(lines, args[1]) == 1
    ):
        return args[0].id, args[2]
    return None


def _arguments(call: ast.Call) -> list[ast.expr]:
    """The values of a call's arguments in the order written (CPython keeps positional
    and keyword arguments apart): ``*value`` and ``name=value`` give ``value``."""
    values = [
        (a.lineno, a.col_offset, a.value if isinstance(a, ast.Starred) else a) for a in call.args
    ] + [(k.lineno, k.col_offset, k.value) for k in call.keywords]
    return [value for _, _, value in sorted(values, key=lambda item: item[:2])]


def _entries(value: ast.expr, lines: Lines) -> dict[str, ast.expr] | None:
    """The ``to_add``/``to_skip`` entries of a ``{...}`` literal (each key one string
    literal; ``"to_" "add"`` is not read as one) or of a ``dict(...)`` call of keywords
    only; ``None`` for any other value, or one with ``**``/positional arguments."""
    if isinstance(value, ast.Dict):
        found: dict[str, ast.expr] = {}
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None:
                return None
            if (
                isinstance(key, ast.Constant)
                and key.value in _KEYS
                and string_literals(lines, key) == 1
            ):
                found[key.value] = item
        return found
    if isinstance(value, ast.Call) and dotted(value.func) == "dict":
        if value.args or any(k.arg is None for k in value.keywords):
            return None
        return {k.arg: k.value for k in value.keywords if k.arg is not None}
    return None


def _bare_string(entries: Mapping[str, ast.expr], lines: Lines) -> tuple[str, ast.expr] | None:
    """The first entry (``to_add``, then ``to_skip``) that is a string (or bytes) literal,
    or adjacent literals (an f-string among them); a lone f-string is not one."""
    for key in _KEYS:
        entry = entries.get(key)
        if (isinstance(entry, ast.Constant) and isinstance(entry.value, str | bytes)) or (
            isinstance(entry, ast.JoinedStr) and string_literals(lines, entry) > 1
        ):
            return key, entry
    return None


def _lacking(
    entries: Mapping[str, ast.expr], value: ast.expr, wrappers: set[str]
) -> ast.expr | None:
    """Where a setting of a function taking ``out`` (carrying ``wrappers``) lacks
    ``handle_out_argument``: its ``to_add``, or the whole ``value`` without one; ``None``
    when the function's own wrapper stays on the backend path (not in ``to_skip``), when
    ``to_add`` lists it, or when ``to_add`` is not a literal of strings."""
    skipped = _string_items(entries["to_skip"]) if "to_skip" in entries else []
    if _OUT_WRAPPER in wrappers and _OUT_WRAPPER not in (skipped or []):
        return None
    to_add = entries.get("to_add")
    listed = [] if to_add is None else _string_items(to_add)
    if listed is None or _OUT_WRAPPER in listed:
        return None
    return value if to_add is None else to_add


def _string_items(value: ast.expr) -> list[str] | None:
    """The strings of a tuple/list/set literal (``*"name"`` gives ``"name"``); ``None``
    when an element is anything else (a name, bytes, an f-string)."""
    if not isinstance(value, ast.Tuple | ast.List | ast.Set):
        return None
    items: list[str] = []
    for element in value.elts:
        if isinstance(element, ast.Starred):
            element = element.value
        if not isinstance(element, ast.Constant) or not isinstance(element.value, str):
            return None
        items.append(element.value)
    return items
