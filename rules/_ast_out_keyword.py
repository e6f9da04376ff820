"""Where a keyword argument (``out=...``) is reported: its span, total on a parsed tree.

IVY004, IVY007 and IVY012 report the ``out=`` keyword itself. CPython's ``keyword`` spans
from the name to the value's end, parentheses around the value included (what users see
as the argument), in UTF-8 byte columns; findings are in code points. A tree from
``ast.parse`` always carries end positions, so the span is always known: a missing end
(a hand-built node) is read as an empty span at the start rather than as a failure.
"""

from __future__ import annotations

import ast

from ivycheck.rules._ast_source import Lines


def keyword_span(lines: Lines, keyword: ast.keyword) -> tuple[int, int, int, int]:
    """(line, code-point column, end line, end column) of ``keyword`` as written."""
    line, column = keyword.lineno, lines.column(keyword.lineno, keyword.col_offset)
    if keyword.end_lineno is None or keyword.end_col_offset is None:
        return line, column, line, column
    return (
        line,
        column,
        keyword.end_lineno,
        lines.column(keyword.end_lineno, keyword.end_col_offset),
    )
