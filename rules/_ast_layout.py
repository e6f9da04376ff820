"""How statements and expressions are laid out in the text, where libcst's tree says so and
CPython's does not.

libcst keeps the layout CPython's parser throws away, and some checks read it: a block on
its header's line (``if c: return x``, a ``SimpleStatementSuite``) is not an
``IndentedBlock``, an expression's code includes its own parentheses, an element's span
includes them. A check that decides on CPython's tree (``Rule.find_on_ast``) reads the
same facts from the text here, and gets ``None`` where the text is not a shape read
exactly (a backslash continuation, a comment where a parenthesis may hide), so that it
can leave the file to libcst.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from ivycheck.rules._ast_source import Lines

_BLANK = " \t\f"


def indented(lines: Lines, body: Sequence[ast.stmt]) -> bool | None:
    """Whether ``body`` is an indented block (libcst's ``IndentedBlock``), not statements
    on its header's line (``SimpleStatementSuite``): its first statement starts its line.
    ``None`` when the line before ends with a backslash (a continuation joins them)."""
    first = body[0]
    text = lines.lines[first.lineno - 1]
    if text[: lines.column(first.lineno, first.col_offset)].strip(_BLANK):
        return False
    if first.lineno > 1 and lines.lines[first.lineno - 2].rstrip("\r\n").endswith("\\"):
        return None
    return True


def statement_lines(lines: Lines, body: Sequence[ast.stmt]) -> int | None:
    """How many statements libcst's indented block ``body`` holds: simple statements
    joined by ``;`` on one line are one ``SimpleStatementLine``. ``None`` where a
    backslash continuation may join two lines."""
    count = 0
    previous: ast.stmt | None = None
    for statement in body:
        if previous is None or statement.lineno != previous.end_lineno:
            if previous is not None and _continued(lines, previous.end_lineno or 0):
                return None
            count += 1
        previous = statement
    return count


def _continued(lines: Lines, line: int) -> bool:
    return lines.lines[line - 1].rstrip("\r\n").endswith("\\")


def text(lines: Lines, node: ast.expr | ast.stmt) -> str:
    """The node's text from its start to its end (code points), as CPython places them:
    without the parentheses around an expression."""
    end_line = node.end_lineno or node.lineno
    start = lines.column(node.lineno, node.col_offset)
    end = lines.column(end_line, node.end_col_offset or 0)
    if end_line == node.lineno:
        return lines.lines[node.lineno - 1][start:end]
    inner = lines.lines[node.lineno : end_line - 1]
    return "".join([lines.lines[node.lineno - 1][start:], *inner, lines.lines[end_line - 1][:end]])


_IF = re.compile(r"(?:^|[^\w])(?:el)?if$")


def keyword_value_code(lines: Lines, keyword: ast.keyword) -> str | None:
    """libcst's ``code_for`` of a keyword argument's value (``Arg.value``): the text from
    the value's first token (its own opening parenthesis, if any) to the keyword's end,
    which CPython places after the value's closing parentheses. The blanks, line breaks,
    continuations and comments between the name and ``=`` and after ``=`` belong to
    libcst's ``AssignEqual``, not to the value. ``None`` for ``**mapping`` (no name) or a
    text that is not ``name``, such filler, ``=``."""
    end_line, end_offset = keyword.end_lineno, keyword.end_col_offset
    if keyword.arg is None or end_line is None or end_offset is None:
        return None
    start = lines.column(keyword.lineno, keyword.col_offset)
    end = lines.column(end_line, end_offset)
    if end_line == keyword.lineno:
        whole = lines.lines[end_line - 1][start:end]
    else:
        inner = lines.lines[keyword.lineno : end_line - 1]
        whole = "".join(
            [lines.lines[keyword.lineno - 1][start:], *inner, lines.lines[end_line - 1][:end]]
        )
    if not whole.startswith(keyword.arg):
        return None
    at = _filler_end(whole, len(keyword.arg))
    if not whole.startswith("=", at):
        return None
    return whole[_filler_end(whole, at + 1) :]


_FILLER = re.compile(r"(?:[ \t\f\r\n]+|#[^\r\n]*|\\(?:\r\n|\r|\n))*")
"""What may stand between a keyword's name, ``=`` and its value inside a call's
parentheses: blanks, line breaks, comments, backslash continuations."""


def _filler_end(written: str, start: int) -> int:
    match = _FILLER.match(written, start)
    return match.end() if match is not None else start
