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

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
"""A line as CPython's parser counts lines (``str.splitlines`` also breaks at ``\\f``...)."""

_DEF = re.compile(r"(?:async[ \t]+)?def[ \t]+")


class Lines:
    """A file's lines, split once: a rule asks about every function of a large file."""

    def __init__(self, source: str) -> None:
        self.lines: list[str] = _LINE.findall(source)

    def column(self, line: int, byte_offset: int) -> int:
        """The code-point column of CPython's ``col_offset`` on 1-based ``line``."""
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

    def header(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """The text from the ``def`` line to the function's first statement: its signature
        with every annotation (and any comment inside it)."""
        first = function.body[0]
        before = self.lines[function.lineno - 1 : first.lineno - 1]
        last = self.lines[first.lineno - 1]
        return "".join(before) + last[: self.column(first.lineno, first.col_offset)]
