"""Which returns of a ``support_native_out`` function leave ``out`` unwritten, on CPython's tree.

IVY003's analysis. The wrapper hands such a function the native ``out`` buffer and trusts
it to write the result there, so every ``return`` must come after (or with) a write of
``out``: the out-flow (:class:`~ivycheck.rules._ast_out_analysis.ModuleFlows`) says which
nodes write it, :func:`~ivycheck.rules._ast_out_analysis.return_paths` judges each return.
This module adds what IVY003's message says about a return, and the message itself:
whether it hands back a dtype conversion of the native result (a new array, not the buffer
written), whether it is reached only on degenerate input (an empty or 0-d array, a loop
that runs zero times), which makes the finding a warning, and what ``out`` then becomes
(the project's wrapper and backend update decide, :mod:`ivycheck.rules._out_fate`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ivycheck.checker.project.index import ProjectIndex
from ivycheck.rules._ast_facts import FunctionNode, facts
from ivycheck.rules._ast_native_out_sites import native_out_sites
from ivycheck.rules._ast_outflow import returns_method_of_call
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import RETURNED, OutFate, compose, project_wrapper
from ivycheck.rules._vocabulary import CONVERSIONS, OUT

EMPTY_INPUT = " (reached only on empty or 0-d input)"
"""The words for a return right under a test for empty or 0-d input."""

AFTER_LOOP = " (after the loop above, when it runs zero times)"
"""The words for a return of a name a loop above writes ``out`` into (zero iterations)."""

_EMPTY_TEST = re.compile(
    r"(\.size|\.ndim|len\([^()]*\.shape\))\s*(==|<=|<)\s*[01]\b"
    r"|\.shape\s*==\s*\(\s*\)|^not\s+[\w.]+\.(size|ndim|shape)$"
)
"""Tests for empty or 0-d input: ``x.size == 0``, ``len(x.shape) == 0``, ``not x.ndim``,
read in the test's code as written, its own parentheses (and any comment inside them)
included: ``(not x.ndim)`` is no plain negation of an attribute."""

_FILLER = re.compile(r"(?:[ \t\f\r\n]+|#[^\r\n]*|\\(?:\r\n|\r|\n))*")
"""What may stand around a test inside its own parentheses: blanks, line breaks,
comments, backslash continuations."""


def attributed_functions(
    tree: ast.Module, lines: Lines, index: ProjectIndex
) -> list[tuple[str, FunctionNode]]:
    """The functions the file sets the attribute on, in the order of their first setting.
    A function whose every setting is a falsy literal counts only where the project's
    wrapper tests the attribute's presence (Ivy's does), not where it reads its value."""
    by_function: dict[str, list[bool]] = {}  # each setting's falsiness
    for site in native_out_sites(tree, lines):
        by_function.setdefault(site.function, []).append(site.falsy)
    if not by_function:
        return []
    wrapper = project_wrapper(index)
    reads_value = wrapper is not None and wrapper[1].reads_value
    functions = facts(tree).module_functions
    return [
        (name, functions[name])
        for name, falsy in by_function.items()
        if name in functions and not (reads_value and all(falsy))
    ]


def converted(returned: ast.Return) -> str | None:
    """``astype`` for ``return np.divide(x, y, out=out).astype(x.dtype)``: the dtype
    conversion called on the result of a call given ``out=`` (what is returned is then a
    new array, not the buffer written), else ``None``."""
    value = returned.value
    if returns_method_of_call(returned):
        assert isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
        if value.func.attr in CONVERSIONS:
            return value.func.attr
    return None


def degenerate(function: FunctionNode, returned: ast.Return, lines: Lines) -> str:
    """The words for a return that drops ``out`` only on degenerate input, else ``""``:
    directly in the indented block of an ``if``/``elif`` testing for empty or 0-d input
    (:data:`EMPTY_INPUT`), or returning a name that a loop above it in the same block
    rebinds to a result written into ``out`` (:data:`AFTER_LOOP`)."""
    owner, block, position = _place(function, returned)
    if isinstance(owner, ast.If) and block is owner.body:
        code, header_end = _test_code(lines, owner)
        if _indented(lines, header_end) and _EMPTY_TEST.search(code):
            return EMPTY_INPUT
    value = returned.value
    if isinstance(value, ast.Name) and any(
        isinstance(loop, ast.For | ast.AsyncFor | ast.While) and _assigns_written(loop, value.id)
        for loop in block[:position]
    ):
        return AFTER_LOOP
    return ""


def dropped_message(name: str, when: str, fate: OutFate, partly: bool = False) -> str:
    """The finding on a return that is reached without writing ``out``. ``partly``: another
    path to the same return writes ``out`` (``if ...: ret = f(x) else: ret = g(x,
    out=out)``), so "never writes" and "the buffer stays untouched" would be false for it:
    the message says the buffer stays untouched only on the paths that do not write. The
    loop's words already name the path that misses ``out`` (zero iterations)."""
    if partly and when != AFTER_LOOP:
        head = (
            f"`{name}` has `support_native_out`, but this return{when} is reached on some "
            "paths without writing `out` (another path to it writes `out`): on those paths "
            "the native buffer stays untouched"
        )
    else:
        head = (
            f"`{name}` has `support_native_out`, but this return{when} never writes "
            "`out`: the native buffer stays untouched"
        )
    return compose(
        head,
        " and ",
        fate,
        "; forward `out` here or end with "
        "`if ivy.exists(out): return ivy.inplace_update(out, ret)`",
    )


def converted_message(name: str, method: str, fate: OutFate) -> str:
    return compose(
        f"`{name}` has `support_native_out`, and this return writes `out` natively but "
        f"hands back `.{method}(...)` of the result, a new array",
        " ",
        fate,
        "; return the native result itself",
        RETURNED,
    )


def _place(function: FunctionNode, returned: ast.Return) -> tuple[ast.AST, list[ast.stmt], int]:
    """The node whose statement list holds ``returned``, the list, and its index there."""
    for node in ast.walk(function):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list):
                for index, statement in enumerate(block):
                    if statement is returned:
                        return node, block, index
    raise AssertionError("a return of the function is in one of its statement lists")


def _assigns_written(loop: ast.For | ast.AsyncFor | ast.While, name: str) -> bool:
    """Whether the loop's body assigns ``name`` a value holding a call given ``out=``."""
    return any(
        isinstance(assign, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in assign.targets)
        and any(isinstance(k, ast.keyword) and k.arg == OUT for k in ast.walk(assign.value))
        for statement in loop.body
        for assign in ast.walk(statement)
    )


def _test_code(lines: Lines, owner: ast.If) -> tuple[str, tuple[int, int]]:
    """The code of an ``if``/``elif`` test as written, with the parentheses of its own
    (those opened between the keyword and the test) and what stands inside them, and
    where that code ends (line, column)."""
    line, column = owner.lineno, lines.column(owner.lineno, owner.col_offset)
    keyword = "elif" if lines.lines[line - 1].startswith("elif", column) else "if"
    test = owner.test
    start = (test.lineno, lines.column(test.lineno, test.col_offset))
    depth = 0
    opening = start
    for at, char in _significant(lines, (line, column + len(keyword))):
        if at >= start:
            break
        if char == "(":
            depth += 1
            opening = opening if depth > 1 else at
    end_line = test.end_lineno or test.lineno
    end = (end_line, lines.column(end_line, test.end_col_offset or 0))
    closed = 0
    if depth:
        for at, char in _significant(lines, end):
            if char != ")":
                break
            closed += 1
            end = (at[0], at[1] + 1)
            if closed == depth:
                break
    return _text(lines, opening, end), end


def _significant(lines: Lines, start: tuple[int, int]) -> Iterator[tuple[tuple[int, int], str]]:
    """Each character from ``start`` on that is not filler (:data:`_FILLER`), with where
    it stands: inside a header's parentheses only brackets and the test are."""
    line, column = start
    while line <= len(lines.lines):
        text = lines.lines[line - 1]
        match = _FILLER.match(text, column)
        column = match.end() if match is not None else column
        if column < len(text):
            yield (line, column), text[column]
            column += 1
        else:
            line, column = line + 1, 0


def _indented(lines: Lines, header_end: tuple[int, int]) -> bool:
    """Whether the block after a header ending at ``header_end`` (its test and the test's
    own parentheses) is indented: a comment or a line break follows the ``:`` on its
    logical line (``if x.size == 0: return x`` is a body on the header's line)."""
    colon = next(at for at, char in _significant(lines, header_end) if char == ":")
    line, column = colon[0], colon[1] + 1
    while True:
        rest = lines.lines[line - 1][column:].lstrip(" \t\f")
        if rest.startswith("\\") and rest[1:2] in ("\r", "\n"):
            line, column = line + 1, 0  # a continuation: the logical line goes on
            continue
        return rest[:1] in ("", "#", "\r", "\n")


def _text(lines: Lines, start: tuple[int, int], end: tuple[int, int]) -> str:
    """The text from ``start`` to ``end`` (code-point columns)."""
    if start[0] == end[0]:
        return lines.lines[start[0] - 1][start[1] : end[1]]
    inner = lines.lines[start[0] : end[0] - 1]
    return "".join(
        [lines.lines[start[0] - 1][start[1] :], *inner, lines.lines[end[0] - 1][: end[1]]]
    )
