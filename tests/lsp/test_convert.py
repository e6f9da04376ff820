"""Diagnostics as the client receives them: positions in UTF-16 units, the same JSON
whether the server builds lsprotocol's objects (pulls, code actions) or the JSON itself
(what it publishes after every keystroke: ``convert.to_lsp_json``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter

from ivycheck.checker.base.diagnostics import Diagnostic, Severity
from ivycheck.lsp.convert import split_lines, to_lsp_diagnostic, to_lsp_json
from tests.helpers import write_tree
from tests.lsp.harness import change_document, codes, open_document, published, server

TEXT = 'x = "\U0001f600" (:\ndef f(x, /, *, out: "\U0001f600" | int = None):\n    pass'


def _diagnostic(line: int, col: int, end_line: int, end_col: int, **more: object) -> Diagnostic:
    fields: dict[str, object] = {"code": "IVY009", "message": "m", **more}
    return Diagnostic("a.py", line, col, end_line, end_col, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "diagnostic",
    [
        _diagnostic(2, 21, 2, 30),  # a span with a character of two UTF-16 units in it
        _diagnostic(1, 10, 1, 10, code="IVY000"),  # a point: the rest of its line
        _diagnostic(2, 1, 2, 5, severity=Severity.WARNING),
        _diagnostic(3, 5, 3, 9),  # the last line, no line break after it
        _diagnostic(7, 1, 7, 1),  # past the text
    ],
)
def test_published_json_is_lsprotocols_json_of_the_same_diagnostic(diagnostic: Diagnostic) -> None:
    lines = split_lines(TEXT)
    typed = get_converter().unstructure(to_lsp_diagnostic(diagnostic, lines))
    assert to_lsp_json(diagnostic, lines) == typed


@pytest.mark.asyncio
async def test_published_positions_count_utf16_units(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"pyproject.toml": "[tool.ivycheck]\n"})
    async with server(root) as client:
        document = open_document(client, root / "ivy/functional/ivy/a.py", 'x = "\U0001f600" (:\n')
        [error] = await published(client, document, lambda d: len(d) == 1)
        # ``(`` is the 9th code point and the 10th UTF-16 unit: the emoji is two.
        assert error.code == "IVY000"
        assert error.range == types.Range(
            start=types.Position(line=0, character=10), end=types.Position(line=0, character=11)
        )
        change_document(
            client, document, 2, 'def f(x, /, *, out: "\U0001f600" | int = None):\n    pass\n'
        )
        [annotation] = await published(client, document, lambda d: codes(d) == ["IVY009"])
        assert annotation.range == types.Range(
            start=types.Position(line=0, character=20), end=types.Position(line=0, character=30)
        )
        assert annotation.severity == types.DiagnosticSeverity.Error
        assert annotation.source == "ivycheck"
