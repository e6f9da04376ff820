"""Between the engine's values and LSP's: positions, diagnostics, edits.

The engine counts 1-based lines and 1-based columns in Unicode code points; LSP counts
0-based lines and 0-based columns in UTF-16 code units (the default position encoding).
A character outside the Basic Multilingual Plane is one code point but two UTF-16 units,
so the conversion needs the line's text.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Severity

SOURCE = "ivycheck"


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_position(lines: Sequence[str], line: int, col: int) -> types.Position:
    """1-based (line, code-point column) to an LSP position."""
    row = max(line - 1, 0)
    if row >= len(lines):
        return types.Position(line=row, character=0)
    return types.Position(line=row, character=_utf16_length(lines[row][: max(col - 1, 0)]))


def from_position(lines: Sequence[str], position: types.Position) -> tuple[int, int]:
    """An LSP position to 1-based (line, code-point column)."""
    if position.line >= len(lines):
        return position.line + 1, 1
    text = lines[position.line]
    units = 0
    for index, char in enumerate(text):
        if units >= position.character:
            return position.line + 1, index + 1
        units += _utf16_length(char)
    return position.line + 1, len(text) + 1


def to_range(lines: Sequence[str], line: int, col: int, end_line: int, end_col: int) -> types.Range:
    return types.Range(
        start=to_position(lines, line, col), end=to_position(lines, end_line, end_col)
    )


def to_lsp_diagnostic(diagnostic: Diagnostic, lines: Sequence[str]) -> types.Diagnostic:
    severity = (
        types.DiagnosticSeverity.Error
        if diagnostic.severity is Severity.ERROR
        else types.DiagnosticSeverity.Warning
    )
    end_line, end_col = diagnostic.end_line, diagnostic.end_col
    if (end_line, end_col) <= (diagnostic.line, diagnostic.col):
        # Point diagnostics (IVY000) get the rest of the line, so editors can show them.
        row = diagnostic.line - 1
        end_col = len(lines[row]) + 1 if row < len(lines) else diagnostic.col
        end_line = diagnostic.line
    return types.Diagnostic(
        range=to_range(lines, diagnostic.line, diagnostic.col, end_line, end_col),
        message=diagnostic.message,
        severity=severity,
        code=diagnostic.code,
        source=SOURCE,
    )


def to_text_edits(edits: Sequence[Edit], lines: Sequence[str]) -> list[types.TextEdit]:
    return [
        types.TextEdit(
            range=to_range(lines, e.line, e.col, e.end_line, e.end_col), new_text=e.content
        )
        for e in edits
    ]


def split_lines(text: str) -> list[str]:
    """Lines as LSP counts them: split on \\n, \\r\\n and \\r, keeping a last empty line."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
