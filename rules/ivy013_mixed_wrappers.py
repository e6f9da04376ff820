"""IVY013: ``mixed_backend_wrappers`` that drop ``out`` or hold a bare string."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import NamedTuple

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FileUnderCheck, FunctionSummary, Rule
from ivycheck.rules._api_functions import out_param
from ivycheck.rules._ast_calls import function_wrappers, out_arg, wrapped_by_assignment
from ivycheck.rules._ast_facts import FunctionNode
from ivycheck.rules._ast_facts import dotted as ast_dotted
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._decorators import wrappers_of
from ivycheck.rules._names import dotted, module_level_statements
from ivycheck.rules._quote import quoted


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
        """The check below on CPython's tree, exactly (``True`` where the tree cannot tell);
        the index is read last, for the settings left once the tree has decided."""
        try:
            candidates = _ast_candidates(tree)
        except _Undecided:
            return True
        if any(candidate.key is not None for candidate in candidates):
            return True
        index = file.index
        return any(
            _lacks_message(candidate.function, index.implementations(candidate.function))
            is not None
            for candidate in candidates
        )

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree. A string entry is reported as libcst spans it
        (its own parentheses left out, as CPython leaves them out) and quoted from the text:
        ``None`` when it spans several lines. A ``to_add`` tuple's span is libcst's (from
        its first element to its last, a trailing comma included), read from the text
        (:func:`_tuple_span`)."""
        try:
            candidates = _ast_candidates(tree)
        except _Undecided:
            return None
        lines = Lines(file.source)
        findings: list[AstFinding] = []
        for candidate in candidates:
            node = candidate.node
            if candidate.key is not None:
                written = lines.segment(node)
                if written is None:
                    return None
                message: str | None = _string_message(candidate.key, candidate.function, written)
            else:
                implementations = file.index.implementations(candidate.function)
                message = _lacks_message(candidate.function, implementations)
            if message is None:
                continue
            span = (
                _tuple_span(lines, node) if isinstance(node, ast.Tuple) else node_span(lines, node)
            )
            if span is None:
                return None
            findings.append(AstFinding(*span, message))
        return findings

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
        for key in _KEYS:
            entry = entries.get(key)
            if isinstance(entry, cst.SimpleString | cst.ConcatenatedString):
                written = self.context.code_for(entry.with_changes(lpar=[], rpar=[]))
                self.report(entry, _string_message(key, function, written))
                return
        takes_out, wrapped = functions.get(function, (False, False))
        skipped = _string_items(entries["to_skip"]) if "to_skip" in entries else []
        if not takes_out or (wrapped and _OUT_WRAPPER not in (skipped or [])):
            return
        to_add = entries.get("to_add")
        wrappers = [] if to_add is None else _string_items(to_add)
        if wrappers is None or _OUT_WRAPPER in wrappers:
            return
        message = _lacks_message(function, self.context.index.implementations(function))
        if message is not None:
            self.report(to_add if to_add is not None else value, message)


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


# The check on CPython's tree ------------------------------------------------------------


class _Undecided(Exception):
    """A shape CPython's tree cannot tell apart as libcst's check reads it (adjacent
    strings, an f-string, ``*`` or ``**`` in a call or a literal): the file goes to libcst."""


class _Candidate(NamedTuple):
    """A setting the check reports unless the index says otherwise."""

    function: str
    node: ast.expr
    """Where the finding is: the bare string, the ``to_add`` literal, or the whole value."""
    key: str | None
    """The entry holding a bare string; ``None`` for a ``to_add`` lacking ``handle_out_argument``
    (reported unless every backend's own implementation writes ``out``)."""


def _ast_candidates(tree: ast.Module) -> list[_Candidate]:
    """``MixedWrappers.visit_Module`` on CPython's tree up to the index: the module-level
    settings in force (the last of each function's), each judged by ``_check``'s tests.
    Raises :class:`_Undecided` where the tree does not hold what libcst's nodes tell."""
    functions = {
        s.name: s for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    live: dict[str, ast.expr] = {}
    for statement in tree.body:
        found = _ast_setting(statement)
        if found is not None:
            live.pop(found[0], None)
            live[found[0]] = found[1]
    if not live:
        return []
    assigned = wrapped_by_assignment(tree)
    candidates: list[_Candidate] = []
    for function, value in live.items():
        candidate = _ast_candidate(function, value, functions.get(function), assigned)
        if candidate is not None:
            candidates.append(candidate)
    return candidates


def _ast_candidate(
    function: str,
    value: ast.expr,
    definition: FunctionNode | None,
    assigned: dict[str, list[str]],
) -> _Candidate | None:
    """``MixedWrappers._check`` on CPython's tree, up to the index."""
    entries = _ast_entries(value)
    if entries is None:
        return None
    for key in _KEYS:
        entry = entries.get(key)
        if isinstance(entry, ast.JoinedStr):
            raise _Undecided  # an f-string alone (not reported) or adjacent to a string
        if isinstance(entry, ast.Constant) and isinstance(entry.value, str | bytes):
            return _Candidate(function, entry, key)
    if definition is None or out_arg(definition) is None:
        return None
    if _OUT_WRAPPER in function_wrappers(definition, assigned):
        skipped = _ast_string_items(entries["to_skip"]) if "to_skip" in entries else []
        if _OUT_WRAPPER not in (skipped or []):
            return None
    to_add = entries.get("to_add")
    wrappers = [] if to_add is None else _ast_string_items(to_add)
    if wrappers is None or _OUT_WRAPPER in wrappers:
        return None
    return _Candidate(function, value if to_add is None else to_add, None)


def _ast_setting(statement: ast.stmt) -> tuple[str, ast.expr] | None:
    """:func:`_assignment` on ``ast``: ``(function, value)`` of ``f.mixed_backend_wrappers
    = value`` and of ``setattr(f, "mixed_backend_wrappers", value)``."""
    if isinstance(statement, ast.Assign):
        if len(statement.targets) != 1:
            return None
        target = statement.targets[0]
        if (
            isinstance(target, ast.Attribute)
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
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        raise _Undecided  # libcst's arguments mix them in, in order
    args = call.args
    if (
        len(args) == 3
        and isinstance(args[0], ast.Name)
        and isinstance(args[1], ast.Constant)
        and args[1].value == _ATTRIBUTE
    ):
        if not _quoted_word(args[1]):
            raise _Undecided  # libcst reads only one string literal, not adjacent ones
        return args[0].id, args[2]
    return None


def _ast_entries(value: ast.expr) -> dict[str, ast.expr] | None:
    """:func:`_entries` on ``ast``: the keys of a ``{...}`` or ``dict(...)`` literal with
    their values. A key naming an entry must be one quoted word (libcst reads a single
    string literal, not adjacent ones)."""
    if isinstance(value, ast.Dict):
        found: dict[str, ast.expr] = {}
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None:
                return None
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                if key.value in _KEYS and not _quoted_word(key):
                    raise _Undecided
                found[key.value] = item
        return found
    if isinstance(value, ast.Call) and ast_dotted(value.func) == "dict":
        if value.args or any(k.arg is None for k in value.keywords):
            return None
        return {k.arg: k.value for k in value.keywords if k.arg is not None}
    return None


def _ast_string_items(value: ast.expr) -> list[str] | None:
    """:func:`_string_items` on ``ast``; raises :class:`_Undecided` at a ``*`` element or an
    f-string (libcst reads ``*"ab"``'s string, and adjacent strings around an f-string)."""
    if not isinstance(value, ast.Tuple | ast.List | ast.Set):
        return None
    items: list[str] = []
    for element in value.elts:
        if isinstance(element, ast.Starred | ast.JoinedStr):
            raise _Undecided
        if not isinstance(element, ast.Constant) or not isinstance(element.value, str):
            return None
        items.append(element.value)
    return items


def _quoted_word(node: ast.Constant) -> bool:
    """Whether a string constant is written as its identifier-like value between two quotes
    on one line (no prefix, escapes or adjacent strings): its span is two bytes longer."""
    return (
        isinstance(node.value, str)
        and node.value.isidentifier()
        and node.end_lineno == node.lineno
        and node.end_col_offset is not None
        and node.end_col_offset - node.col_offset == len(node.value) + 2
    )


Span = tuple[int, int, int, int]
"""(line, column, end line, end column): 1-based lines, 0-based code-point columns."""


def _tuple_span(lines: Lines, node: ast.Tuple) -> Span | None:
    """libcst's span of a parenthesized tuple: its parentheses belong to the tuple's
    ``lpar``/``rpar`` and are left out with the blanks, comments and line breaks after the
    ``(``, so it runs from the first element to the last (its trailing comma included);
    an empty tuple's is empty, before the ``)``. CPython's span is the innermost
    parentheses'. ``None`` where the text is not that shape (a ``\\`` continuation, a
    parenthesized last element)."""
    whole = node_span(lines, node)
    if whole is None:
        return None
    line, column, end_line, end_column = whole
    if not lines.lines[line - 1].startswith("(", column):
        return None
    start = _next_token(lines, line, column + 1)
    if start is None:
        return None
    if not node.elts:
        return (*start, *start)
    last = node_span(lines, node.elts[-1])
    if last is None:
        return None
    after = _next_token(lines, last[2], last[3])
    if after is None:
        return None
    text = lines.lines[after[0] - 1]
    if text.startswith(",", after[1]):
        return (*start, after[0], after[1] + 1)
    if after == (end_line, end_column - 1) and text.startswith(")", after[1]):
        return (*start, last[2], last[3])
    return None


def _next_token(lines: Lines, line: int, column: int) -> tuple[int, int] | None:
    """Where the next token starts at or after (``line``, ``column``) inside brackets:
    past blanks, comments and line breaks; ``None`` at a ``\\`` or the end of the text."""
    while line <= len(lines.lines):
        text = lines.lines[line - 1]
        while column < len(text) and text[column] in " \t\f":
            column += 1
        if column < len(text) and text[column] not in "#\r\n\\":
            return line, column
        if column < len(text) and text[column] == "\\":
            return None
        line, column = line + 1, 0
    return None


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
