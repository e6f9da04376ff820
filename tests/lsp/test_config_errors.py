"""A broken ``[tool.ivycheck]`` is reported in the editor, never silently replaced.

The user gets a ``window/showMessage`` and a diagnostic on the configuration file at the
offending key; meanwhile the server keeps checking with the last configuration that
loaded (defaults, and says so, when none ever did). Fixing the file takes the
diagnostic back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import write_tree
from tests.lsp.harness import codes, open_document, published, server, uri

pytestmark = pytest.mark.asyncio

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""
API = "ivy/functional/ivy/elementwise.py"
GOOD = '[project]\nname = "demo"\n\n[tool.ivycheck]\nignore = ["IVY005"]\n'
BROKEN = GOOD + 'per-file-ignores = { "a.py" = ["IVY001"] }\nselekt = ["IVY0"]\n'
"""``selekt`` is line 7 (0-based 6)."""


def _touch(client: LanguageClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(path), type=types.FileChangeType.Changed)]
        )
    )


async def _messages(client: LanguageClient, needle: str, timeout: float = 30.0) -> list[str]:
    for _ in range(int(timeout / 0.05)):
        found = [m.message for m in client.messages if needle in m.message]
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"no message with {needle!r}: {client.messages}")


async def _pull(client: LanguageClient, document: str) -> list[str]:
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    return codes(report.items)


async def test_broken_from_the_start_uses_defaults_and_says_so(tmp_path: Path) -> None:
    workspace = write_tree(tmp_path, {"pyproject.toml": BROKEN, API: BAD_ORDER})
    pyproject = workspace / "pyproject.toml"
    async with server(workspace) as client:
        document = open_document(client, workspace / API)
        await published(client, document, lambda d: codes(d) == ["IVY005"])
        [shown] = await _messages(client, "selekt")
        assert "using defaults" in shown
        assert str(pyproject) in shown
        [marked] = await published(client, uri(pyproject), lambda d: len(d) == 1)
        assert marked.range.start.line == 6
        assert marked.severity == types.DiagnosticSeverity.Error
        assert "selekt" in marked.message
        pyproject.write_text(GOOD)
        _touch(client, pyproject)
        await published(client, uri(pyproject), lambda d: not d)
        await published(client, document, lambda d: not d)
        assert len([m for m in client.messages if "selekt" in m.message]) == 1


async def test_broken_after_good_keeps_the_last_good_settings(tmp_path: Path) -> None:
    workspace = write_tree(tmp_path, {"pyproject.toml": GOOD, API: BAD_ORDER})
    pyproject = workspace / "pyproject.toml"
    async with server(workspace, pull=True) as client:
        document = open_document(client, workspace / API)
        assert await _pull(client, document) == []
        pyproject.write_text(BROKEN)
        _touch(client, pyproject)
        [shown] = await _messages(client, "selekt")
        assert "keeping the last good settings" in shown
        [marked] = await published(client, uri(pyproject), lambda d: len(d) == 1)
        assert marked.range.start.line == 6
        assert await _pull(client, document) == [], "IVY005 stays ignored as it was"
        pyproject.write_text('[tool.ivycheck]\nselect = ["IVY0"]\n')
        _touch(client, pyproject)
        await published(client, uri(pyproject), lambda d: not d)
        assert await _pull(client, document) == ["IVY005"]


async def test_invalid_toml_points_at_its_line(tmp_path: Path) -> None:
    workspace = write_tree(
        tmp_path, {"pyproject.toml": "[tool.ivycheck]\nignore = [\n\nx = = 1\n", API: BAD_ORDER}
    )
    async with server(workspace) as client:
        open_document(client, workspace / API)
        await _messages(client, "invalid TOML")
        [marked] = await published(client, uri(workspace / "pyproject.toml"), lambda d: len(d) == 1)
        assert marked.range.start.line == 3


async def test_a_bad_sub_table_is_found_at_its_header(tmp_path: Path) -> None:
    text = (
        '[tool.ivycheck]\nignore = []\n\n[tool.ivycheck.per-file-ignores]\n"a.py" = ["no code"]\n'
    )
    workspace = write_tree(tmp_path, {"pyproject.toml": text, API: BAD_ORDER})
    async with server(workspace) as client:
        open_document(client, workspace / API)
        await _messages(client, "no code")
        [marked] = await published(client, uri(workspace / "pyproject.toml"), lambda d: len(d) == 1)
        assert marked.range.start.line == 3
