"""Between the engine's values and LSP's: positions, diagnostics, edits.

The engine counts 1-based lines and 1-based columns in Unicode code points; LSP counts
0-based lines and 0-based columns in UTF-16 code units (the default position encoding).
A character outside the Basic Multilingual Plane is one code point but two UTF-16 units,
so the conversion needs the line's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Severity

SOURCE = "ivycheck"


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _units(lines: Sequence[str], line: int, col: int) -> tuple[int, int]:
    """1-based (line, code-point column) to LSP's 0-based line and UTF-16 column."""
    row = max(line - 1, 0)
    if row >= len(lines):
        return row, 0
    prefix = lines[row][: max(col - 1, 0)]
    # ASCII (nearly every line of code) is one UTF-16 unit a character: no encoding.
    return row, len(prefix) if prefix.isascii() else _utf16_length(prefix)


def to_position(lines: Sequence[str], line: int, col: int) -> types.Position:
    """1-based (line, code-point column) to an LSP position."""
    row, character = _units(lines, line, col)
    return types.Position(line=row, character=character)


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


def _severity(diagnostic: Diagnostic) -> types.DiagnosticSeverity:
    if diagnostic.severity is Severity.ERROR:
        return types.DiagnosticSeverity.Error
    return types.DiagnosticSeverity.Warning


def _end(diagnostic: Diagnostic, lines: Sequence[str]) -> tuple[int, int]:
    """Where the diagnostic ends; a point diagnostic (IVY000) gets the rest of its line,
    so that editors can show it."""
    end_line, end_col = diagnostic.end_line, diagnostic.end_col
    if (end_line, end_col) <= (diagnostic.line, diagnostic.col):
        row = diagnostic.line - 1
        end_col = len(lines[row]) + 1 if row < len(lines) else diagnostic.col
        end_line = diagnostic.line
    return end_line, end_col


def to_lsp_diagnostic(diagnostic: Diagnostic, lines: Sequence[str]) -> types.Diagnostic:
    end_line, end_col = _end(diagnostic, lines)
    return types.Diagnostic(
        range=to_range(lines, diagnostic.line, diagnostic.col, end_line, end_col),
        message=diagnostic.message,
        severity=_severity(diagnostic),
        code=diagnostic.code,
        source=SOURCE,
    )


def _json_position(lines: Sequence[str], line: int, col: int) -> dict[str, int]:
    row, character = _units(lines, line, col)
    return {"line": row, "character": character}


def to_lsp_json(diagnostic: Diagnostic, lines: Sequence[str]) -> dict[str, Any]:
    """:func:`to_lsp_diagnostic` as the JSON lsprotocol's converter makes of it, built
    directly: a document's findings are published after every keystroke, and making
    lsprotocol's validated objects and converting them back to JSON cost 1.4 ms of the
    server's ~20 ms per edit for a document with 150 findings (this, 0.5 ms;
    ``tests/lsp/test_convert.py`` keeps the two equal)."""
    end_line, end_col = _end(diagnostic, lines)
    return {
        "range": {
            "start": _json_position(lines, diagnostic.line, diagnostic.col),
            "end": _json_position(lines, end_line, end_col),
        },
        "message": diagnostic.message,
        "severity": _severity(diagnostic).value,
        "code": diagnostic.code,
        "source": SOURCE,
    }


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
