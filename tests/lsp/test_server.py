"""The language server end to end: a real subprocess over stdio, driven by pytest-lsp."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound

from tests.helpers import write_tree
from tests.lsp.harness import (
    RawConnection,
    apply_edits,
    change_document,
    codes,
    open_document,
    published,
    server,
    uri,
)

pytestmark = pytest.mark.asyncio

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""

FIXED_ORDER = """\
@handle_out_argument
@to_native_arrays_and_back
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "ivy/functional/ivy/elementwise.py": BAD_ORDER,
        },
    )


def _api(workspace: Path) -> Path:
    return workspace / "ivy/functional/ivy/elementwise.py"


async def _actions(client, document: str, diagnostic: types.Diagnostic, only=None):  # type: ignore[no-untyped-def]
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=document),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )


async def test_diagnostic_appears_and_goes_when_quick_fix_is_applied(workspace: Path) -> None:
    async with server(workspace) as client:
        document = open_document(client, _api(workspace))
        [found] = await published(client, document, lambda d: len(d) == 1)
        assert found.code == "IVY005"
        assert found.source == "ivycheck"
        assert found.severity == types.DiagnosticSeverity.Error
        assert found.code_description is None  # no link to a home the project never names
        assert found.range.start == types.Position(line=1, character=0)
        actions = await _actions(client, document, found)
        fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.is_preferred]
        assert [a.title for a in fixes] == ["Reorder the decorators (IVY005)"]
        assert fixes[0].edit is not None and fixes[0].edit.changes is not None
        fixed = apply_edits(BAD_ORDER, fixes[0].edit.changes[document])
        assert fixed == FIXED_ORDER
        change_document(client, document, 2, fixed)
        await published(client, document, lambda d: not d)


async def test_fix_all_source_action(workspace: Path) -> None:
    text = (
        BAD_ORDER
        + "\n\n@handle_view\ndef flip(x, *, out=None):\n    return current_backend(x).flip(x, out=out)\n"
    )
    async with server(workspace) as client:
        document = open_document(client, _api(workspace), text)
        found = await published(client, document, lambda d: len(d) == 2)
        actions = await _actions(client, document, found[0], only=["source.fixAll.ivycheck"])
        [fix_all] = actions
        assert fix_all.kind == "source.fixAll.ivycheck"
        assert fix_all.edit is not None and fix_all.edit.changes is not None
        fixed = apply_edits(text, fix_all.edit.changes[document])
        assert fixed.startswith(FIXED_ORDER)
        assert "def flip(x, *, copy=None, out=None):" in fixed
        change_document(client, document, 2, fixed)
        await published(client, document, lambda d: not d)


async def test_suppress_action_adds_noqa(workspace: Path) -> None:
    async with server(workspace) as client:
        document = open_document(client, _api(workspace))
        [found] = await published(client, document, lambda d: len(d) == 1)
        actions = await _actions(client, document, found)
        [suppress] = [a for a in actions if a.title == "Suppress IVY005 on this line"]
        assert suppress.edit is not None and suppress.edit.changes is not None
        suppressed = apply_edits(BAD_ORDER, suppress.edit.changes[document])
        assert "@handle_out_argument  # noqa: IVY005\n" in suppressed
        change_document(client, document, 2, suppressed)
        await published(client, document, lambda d: not d)
        # An existing code list is extended, not duplicated.
        extended = suppressed.replace("# noqa: IVY005", "# noqa: IVY006")
        change_document(client, document, 3, extended)
        [again] = await published(client, document, lambda d: len(d) == 1)
        [suppress] = [
            a for a in await _actions(client, document, again) if a.title.startswith("Suppress")
        ]
        assert suppress.edit is not None and suppress.edit.changes is not None
        assert "# noqa: IVY006, IVY005" in apply_edits(extended, suppress.edit.changes[document])


FLIP = (
    "\n\n@handle_view\ndef flip(x, *, out=None):\n    return current_backend(x).flip(x, out=out)\n"
)
"""An IVY006 whose range is the name ``flip``: it starts mid-line (line 8, column 4)."""


async def test_actions_for_the_diagnostics_the_client_names(workspace: Path) -> None:
    """Neovim asks with the cursor's position and the line's diagnostics in the context:
    the cursor at the start of the flagged line overlaps no diagnostic, yet the fix of
    the one it names is offered (and with neither, nothing is)."""
    text = BAD_ORDER + FLIP
    async with server(workspace) as client:
        document = open_document(client, _api(workspace), text)
        found = await published(client, document, lambda d: len(d) == 2)
        [copy] = [d for d in found if d.code == "IVY006"]
        assert copy.range.start.character > 0
        line_start = types.Position(line=copy.range.start.line, character=0)

        async def titles(named: list[types.Diagnostic]) -> list[str]:
            answer = await client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=document),
                    range=types.Range(start=line_start, end=line_start),
                    context=types.CodeActionContext(diagnostics=named),
                )
            )
            return [a.title for a in answer or [] if a.kind == types.CodeActionKind.QuickFix]

        assert await titles([]) == []
        offered = await titles([copy])
        assert any(t.endswith("(IVY006)") for t in offered), offered
        assert "Suppress IVY006 on this line" in offered
        assert not any("IVY005" in t for t in offered), offered


async def test_hover_on_diagnostic_and_on_noqa_code(workspace: Path) -> None:
    text = BAD_ORDER + "x = 1  # noqa: IVY006\n"
    async with server(workspace) as client:
        document = open_document(client, _api(workspace), text)
        [found] = await published(client, document, lambda d: len(d) == 1)
        hovered = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=document),
                position=types.Position(line=1, character=3),
            )
        )
        assert hovered is not None and isinstance(hovered.contents, types.MarkupContent)
        assert hovered.contents.value.startswith("**IVY005** `decorator-order`")
        assert "```python" in hovered.contents.value
        # No link to a home the project never names (issue 22 item 8): the way to the
        # full text is the command's.
        assert "](" not in hovered.contents.value and "http" not in hovered.contents.value
        assert "`ivycheck --explain IVY005`" in hovered.contents.value
        on_noqa = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=document),
                position=types.Position(line=4, character=17),
            )
        )
        assert on_noqa is not None and isinstance(on_noqa.contents, types.MarkupContent)
        assert on_noqa.contents.value.startswith("**IVY006** `view-without-copy`")
        nothing = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=document),
                position=types.Position(line=3, character=4),
            )
        )
        assert nothing is None
        assert found.code == "IVY005"


async def test_pyproject_change_changes_diagnostics(workspace: Path) -> None:
    async with server(workspace) as client:
        document = open_document(client, _api(workspace))
        await published(client, document, lambda d: codes(d) == ["IVY005"])
        (workspace / "pyproject.toml").write_text("[tool.ivycheck]\nignore = ['IVY005']\n")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[
                    types.FileEvent(
                        uri=uri(workspace / "pyproject.toml"), type=types.FileChangeType.Changed
                    )
                ]
            )
        )
        await published(client, document, lambda d: not d)


async def test_client_settings_override_pyproject(workspace: Path) -> None:
    async with server(workspace, settings={"ignore": ["IVY005"]}) as client:
        document = open_document(client, _api(workspace))
        await asyncio.sleep(0.5)
        await published(client, document, lambda d: not d)
        client.set_configuration({"ivycheck": {"ignore": []}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await published(client, document, lambda d: codes(d) == ["IVY005"])
        client.set_configuration({"ivycheck": {"enable": False}})
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        await published(client, document, lambda d: not d)


async def test_syntax_error_is_ivy000(workspace: Path) -> None:
    async with server(workspace) as client:
        document = open_document(client, _api(workspace), "def f(:\n    pass\n")
        [found] = await published(client, document, lambda d: len(d) == 1)
        assert found.code == "IVY000"
        assert found.range.start == types.Position(line=0, character=6)
        assert found.range.end.line == 0 and found.range.end.character > 6
        change_document(client, document, 2, FIXED_ORDER)
        await published(client, document, lambda d: not d)


async def test_pull_diagnostics(workspace: Path) -> None:
    async with server(workspace, pull=True, refresh=False) as client:
        document = open_document(client, _api(workspace))
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document))
        )
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        assert codes(report.items) == ["IVY005"]
        assert document not in client.diagnostics, "pull clients get no pushed diagnostics"


CRASHING_PLUGIN = '''
from ivycheck.checker.core.rule import Rule


class CrashingRule(Rule):
    """A third-party rule that crashes on every file it checks."""

    CODE = "EXT001"
    NAME = "crashing-plugin"
    MESSAGE = "never shown"

    @classmethod
    def check(cls, tree, file):
        raise RuntimeError("plugin bug")
'''


async def test_crashing_rule_is_logged_and_dropped(workspace: Path, tmp_path: Path) -> None:
    site = write_tree(
        tmp_path / "site",
        {
            "ext_rules.py": CRASHING_PLUGIN,
            "ext_rules-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: ext-rules\nVersion: 1.0\n",
            "ext_rules-1.0.dist-info/entry_points.txt": "[ivycheck.rules]\next = ext_rules\n",
        },
    )
    async with server(workspace, env={"PYTHONPATH": str(site)}) as client:
        document = open_document(client, _api(workspace))
        found = await published(client, document, lambda d: len(d) >= 1)
        assert codes(found) == ["IVY005"]
        for _ in range(100):
            if any("plugin bug" in m.message for m in client.log_messages):
                break
            await asyncio.sleep(0.05)
        [logged] = [m for m in client.log_messages if "plugin bug" in m.message]
        assert logged.type == types.MessageType.Error
        assert "EXT001 (crashing-plugin)" in logged.message
        # The server is still up and answering; the crash, still there, is not logged again
        # (nor was it when the workspace scan re-checked the open document).
        change_document(client, document, 2, FIXED_ORDER)
        await published(client, document, lambda d: not d)
        assert [m for m in client.log_messages if "plugin bug" in m.message] == [logged]


async def test_unknown_method_and_bad_params_get_errors_and_server_survives(
    workspace: Path,
) -> None:
    async with server(workspace) as client:
        with pytest.raises(JsonRpcMethodNotFound):
            await client.protocol.send_request_async("ivycheck/noSuchMethod", {})
        document = open_document(client, _api(workspace))
        await published(client, document, lambda d: codes(d) == ["IVY005"])


async def test_malformed_messages_get_json_rpc_errors_and_the_server_goes_on(
    workspace: Path,
) -> None:
    raw = await RawConnection.start()
    try:
        first = await raw.request(
            "initialize", {"processId": None, "rootUri": uri(workspace), "capabilities": {}}
        )
        assert "result" in (await raw.response(first))
        await raw.notify("initialized", {})
        bad_params = await raw.request("textDocument/hover", {"nonsense": 1})
        error = (await raw.response(bad_params))["error"]
        assert error["code"] in (-32602, -32603)
        await raw.send_bytes(b"{this is not json")
        parse_error = await raw.read()
        while "error" not in parse_error:
            parse_error = await raw.read()
        assert parse_error["id"] is None
        assert parse_error["error"]["code"] == -32700
        unknown = await raw.request("ivycheck/noSuchMethod", {})
        assert (await raw.response(unknown))["error"]["code"] == -32601
        hover = await raw.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri(_api(workspace))},
                "position": {"line": 1, "character": 2},
            },
        )
        answer = await raw.response(hover)
        assert "IVY005" in answer["result"]["contents"]["value"]
        shutdown = await raw.request("shutdown", None)
        assert "result" in (await raw.response(shutdown))
        await raw.notify("exit", None)
        assert await raw.close() == 0
    finally:
        if raw.process.returncode is None:
            raw.process.kill()


async def test_server_exits_when_the_client_disappears(workspace: Path) -> None:
    raw = await RawConnection.start()
    first = await raw.request(
        "initialize", {"processId": None, "rootUri": uri(workspace), "capabilities": {}}
    )
    await raw.response(first)
    returncode = await raw.close()  # stdin closed without shutdown/exit
    assert returncode is not None


async def test_request_for_unopened_document_reads_disk(workspace: Path) -> None:
    async with server(workspace) as client:
        hovered = await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri(_api(workspace))),
                position=types.Position(line=1, character=2),
            )
        )
        assert hovered is not None


API_DELEGATING = """\
@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
def erf(x, /, *, out=None):
    return current_backend(x).erf(x, out=out)
"""

NUMPY_BACKEND = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


tan.support_native_out = True
"""

NUMPY_BACKEND_WITH_ERF = (
    NUMPY_BACKEND
    + """

def erf(x, /, *, out=None):
    return np.tanh(x)
"""
)


async def test_editing_a_backend_file_updates_the_api_files_diagnostics(tmp_path: Path) -> None:
    workspace = write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "ivy/functional/ivy/special.py": API_DELEGATING,
            "ivy/functional/backends/numpy/special.py": NUMPY_BACKEND,
        },
    )
    api = workspace / "ivy/functional/ivy/special.py"
    backend = workspace / "ivy/functional/backends/numpy/special.py"
    async with server(workspace) as client:
        api_document = open_document(client, api)
        [missing] = await published(client, api_document, lambda d: codes(d) == ["IVY017"])
        assert "numpy" in missing.message
        # An unsaved edit in the backend buffer is enough.
        backend_document = open_document(client, backend)
        change_document(client, backend_document, 2, NUMPY_BACKEND_WITH_ERF)
        await published(client, api_document, lambda d: not d)
        # Closing the buffer without saving brings back what is on disk.
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=backend_document)
            )
        )
        await published(client, api_document, lambda d: codes(d) == ["IVY017"])
        # A change on disk to a file that is not open arrives as a watched-file event.
        backend.write_text(NUMPY_BACKEND_WITH_ERF)
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri(backend), type=types.FileChangeType.Changed)]
            )
        )
        await published(client, api_document, lambda d: not d)
