"""Positions on CPython's tree as libcst reports them, from the file's text.

CPython's nodes carry UTF-8 byte columns and no position for a definition's name; libcst
reports code-point columns and the name's own span. A rule that decides a file on
CPython's tree (``Rule.find_on_ast``) must report exactly where its libcst check would, so
it reads the text around the node: this module does that, and says ``None`` where the
text is not the plain shape it can read (a line continuation between ``def`` and the name).
"""

from __future__ import annotations

import ast
import re
from typing import overload

from ivycheck.checker.base.python_lines import python_lines

_last_split: tuple[str, list[str]] = ("", [])


def split_lines(source: str) -> list[str]:
    """``source``'s lines as CPython counts them, with their ends: split once for the
    last text asked about (the rules of one file ask in turn). A text is compared by
    identity first, then by value: a run on one core checks a file's text read again
    after the index, equal to the one its early check split (comparing is a fraction of
    splitting). Never change the list."""
    global _last_split
    text, lines = _last_split
    if text is not source:
        if text != source:
            lines = python_lines(source)
        _last_split = (source, lines)  # the next question about this object: no comparison
    return lines


_DEF = re.compile(r"(?:async[ \t]+)?def[ \t]+")
_DEF_NAME = re.compile(r"(?:async(?:[ \t\f]|\\\r?\n)+)?def(?:[ \t\f]|\\\r?\n)+")
"""From ``def`` (or ``async def``) to the function's name: blanks and line continuations."""


class _SplitOnFirstRead:
    """:attr:`Lines.lines`: :func:`split_lines` of the text on the first read, then kept in
    the instance (whose attribute hides this descriptor). ``functools.cached_property``
    does the same under a lock on every first read (Python 3.11), which cost a tenth of a
    fix's text where a fix per function makes a :class:`Lines` each."""

    @overload
    def __get__(self, instance: None, owner: type[Lines]) -> _SplitOnFirstRead: ...

    @overload
    def __get__(self, instance: Lines, owner: type[Lines]) -> list[str]: ...

    def __get__(self, instance: Lines | None, owner: type[Lines]) -> list[str] | _SplitOnFirstRead:
        if instance is None:
            return self
        lines = instance.__dict__["lines"] = split_lines(instance.source)
        return lines


class Lines:
    """A file's lines, split once however many rules ask (:func:`split_lines`), and only
    when a rule reads them: most positions of a file written in ASCII are CPython's own
    (:meth:`column`), and eighteen rules each splitting every file they look at cost more
    than their checks."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._ascii = source.isascii()  # (a flag of CPython's string: no scan)

    lines = _SplitOnFirstRead()
    """The lines with their ends (shared: never change the list)."""

    def column(self, line: int, byte_offset: int) -> int:
        """The code-point column of CPython's ``col_offset`` on 1-based ``line``."""
        if self._ascii:
            return byte_offset  # one byte a code point: CPython's offset is the column
        text = self.lines[line - 1]
        if text.isascii():
            return byte_offset
        return len(text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))

    def name_column(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
        """The 0-based code-point column of the function's name on its ``def`` line, or
        ``None`` when the name is not on that line right after ``def``."""
        text = self.lines[function.lineno - 1]
        start = self.column(function.lineno, function.col_offset)
        match = _DEF.match(text, start)
        if match is None or not text.startswith(function.name, match.end()):
            return None
        return match.end()

    def name_position(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int]:
        """The (1-based line, code-point column) of the function's name, wherever it is
        (after ``def`` on the same line, or after a line continuation). The plain shape is
        read on the ``def`` line alone (:meth:`name_column`: where it answers, the
        continuation's pattern ends at the same place, since the name follows)."""
        column = self.name_column(function)
        if column is not None:
            return function.lineno, column
        line = function.lineno
        header = self.lines[line - 1 : function.body[0].lineno]
        start = self.column(line, function.col_offset)
        found = _DEF_NAME.match("".join(header), start)
        offset = found.end() if found is not None else start
        for text in header:
            if offset < len(text):
                break
            offset -= len(text)
            line += 1
        return line, offset

    def header(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """The text from the ``def`` line to the function's first statement: its signature
        with every annotation (and any comment inside it)."""
        first = function.body[0]
        before = self.lines[function.lineno - 1 : first.lineno - 1]
        last = self.lines[first.lineno - 1]
        return "".join(before) + last[: self.column(first.lineno, first.col_offset)]

    def segment(self, node: ast.expr | ast.stmt) -> str | None:
        """The text of a node that starts and ends on one line, as libcst's ``code_for``
        gives it (code points), else ``None``."""
        if node.end_lineno != node.lineno or node.end_col_offset is None:
            return None
        text = self.lines[node.lineno - 1]
        start = self.column(node.lineno, node.col_offset)
        return text[start : self.column(node.lineno, node.end_col_offset)]

    def alone(self, statement: ast.stmt) -> str | None:
        """The text of a one-line ``statement`` that stands alone on its line from column 0
        (nothing after it but blanks and a comment: no ``;``, no continuation), else
        ``None``. libcst's span of such a statement, and its ``code_for`` stripped, are
        exactly this text."""
        if statement.col_offset != 0:
            return None
        written = self.segment(statement)
        if written is None:
            return None
        rest = self.lines[statement.lineno - 1][len(written) :]
        return written if _REST.fullmatch(rest) else None

    def own_line(self, statement: ast.stmt) -> bool | None:
        """Whether libcst makes ``statement`` a line of its own (a ``SimpleStatementLine``
        holding it alone): ``True`` when only indentation comes before it (and no line
        continuation leads to it) and only blanks and a comment after it; ``False`` when it
        shares its line (text before it: the one-line body of a compound statement or a
        ``;`` neighbour; a ``;`` after it); ``None`` for anything else (a continuation)."""
        if statement.end_lineno is None or statement.end_col_offset is None:
            return None
        first = self.lines[statement.lineno - 1]
        if first[: self.column(statement.lineno, statement.col_offset)].strip(" \t\f"):
            return False
        last = self.lines[statement.end_lineno - 1]
        rest = last[self.column(statement.end_lineno, statement.end_col_offset) :]
        if rest.lstrip(" \t\f").startswith(";"):
            return False
        previous = self.lines[statement.lineno - 2] if statement.lineno > 1 else ""
        if previous.rstrip("\r\n").endswith("\\") or not _REST.fullmatch(rest):
            return None
        return True


_REST = re.compile(r"[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n)?")
"""What may follow a statement alone on its line: blanks, a comment, the line's end."""


def node_span(lines: Lines, node: ast.expr | ast.keyword) -> tuple[int, int, int, int] | None:
    """(line, code-point column, end line, end column) of a node as CPython places it, or
    ``None`` for a node without an end (a parsed tree always has one).

    libcst reports exactly this span for the nodes whose text CPython's tree starts and ends
    where libcst's does: a call (from its callee's first token, parentheses of the callee
    included, to its closing parenthesis; parentheses around the whole call are in neither)
    and a keyword argument (``name=value``: libcst's ``Arg`` from the name to the value's
    end, parentheses of the value included, the comma after it not)."""
    if node.end_lineno is None or node.end_col_offset is None:
        return None
    return (
        node.lineno,
        lines.column(node.lineno, node.col_offset),
        node.end_lineno,
        lines.column(node.end_lineno, node.end_col_offset),
    )
