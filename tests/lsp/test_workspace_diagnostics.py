"""Findings of files that are not open: pulled (``workspace/diagnostic``) by clients that
can, published to those that cannot, from the index the server holds; with result ids,
re-checked only when the file or an index answer it used changed, and sent again when a
change elsewhere alters them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import write_tree
from tests.lsp.harness import (
    NUMPY_TAN,
    SPECIAL_API,
    change_document,
    codes,
    open_document,
    published,
    server,
    uri,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "ivy/functional/ivy/special.py": SPECIAL_API,
            "ivy/functional/backends/numpy/special.py": NUMPY_TAN,
        },
    )


async def test_workspace_pull_reports_closed_files_with_cross_file_findings(
    workspace: Path,
) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    backend = uri(workspace / "ivy/functional/backends/numpy/special.py")
    async with server(workspace, pull=True) as client:
        for _ in range(300):
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[])
            )
            by_uri = {item.uri: codes(item.items) for item in report.items}
            if "IVY017" in by_uri.get(api, []):
                break
            await asyncio.sleep(0.05)
        assert sorted(by_uri[api]) == ["IVY005", "IVY017"]
        assert by_uri[backend] == []


async def test_clients_that_cannot_pull_get_closed_files_published(workspace: Path) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=False) as client:
        found = await published(client, api, lambda d: "IVY017" in codes(d))
        assert sorted(codes(found)) == ["IVY005", "IVY017"]


CREATION = """\
@handle_out_argument
def zeros(shape, *, out=None):
    return current_backend().zeros(shape, out=out)
"""
"""An API file that asks the index about ``zeros`` only."""
BACKEND_WITH_ERF = (
    NUMPY_TAN
    + """

def erf(x, /, *, out=None):
    return np.tan(x)
"""
)


def _touch(client: LanguageClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(path), type=types.FileChangeType.Changed)]
        )
    )


async def _pull(
    client: LanguageClient, previous: dict[str, str] | None = None
) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(
            previous_result_ids=[
                types.PreviousResultId(uri=u, value=v) for u, v in (previous or {}).items()
            ]
        )
    )
    return {item.uri: item for item in report.items}


async def _pull_complete(
    client: LanguageClient, api: str, *, wait_for_refresh: bool = True
) -> dict[str, str]:
    """Pull once the scan is over (the server asks a client that supports it to pull
    when its index is complete and final) and IVY017 shows; each file's result id. A pull
    answered while the scan still runs may already show IVY017 and yet be checked again
    once the scan ends."""
    for _ in range(300 if wait_for_refresh else 0):
        if client.diagnostic_refresh_count:
            break
        await asyncio.sleep(0.05)
    for _ in range(300):
        reports = await _pull(client)
        item = reports.get(api)
        if isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) and any(
            d.code == "IVY017" for d in item.items
        ):
            ids = {u: r.result_id for u, r in reports.items()}
            assert all(isinstance(v, str) and v for v in ids.values()), ids
            return {u: str(v) for u, v in ids.items()}
        await asyncio.sleep(0.05)
    raise AssertionError("the index never completed")


def _checked(client: LanguageClient) -> list[str]:
    return [m.message for m in client.log_messages if "files checked" in m.message]


async def test_workspace_pull_answers_unchanged_for_the_result_ids_it_is_sent(
    workspace: Path,
) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=True) as client:
        ids = await _pull_complete(client, api)
        assert len(ids) == 2
        before = len(_checked(client))
        again = await _pull(client, ids)
        assert {u: type(r) for u, r in again.items()} == {
            u: types.WorkspaceUnchangedDocumentDiagnosticReport for u in ids
        }
        assert {u: r.result_id for u, r in again.items()} == ids
        assert _checked(client)[before:] == [], "no file was checked again"


async def test_a_backend_change_rechecks_only_the_files_that_asked_about_it(
    workspace: Path,
) -> None:
    creation = workspace / "ivy/functional/ivy/creation.py"
    creation.write_text(CREATION)
    backend_path = workspace / "ivy/functional/backends/numpy/special.py"
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=True, env={"IVYCHECK_LOG_LEVEL": "info"}) as client:
        ids = await _pull_complete(client, api)
        refreshes = client.diagnostic_refresh_count
        backend_path.write_text(BACKEND_WITH_ERF)
        _touch(client, backend_path)
        for _ in range(300):  # the server asks the client to pull again
            if client.diagnostic_refresh_count > refreshes:
                break
            await asyncio.sleep(0.02)
        assert client.diagnostic_refresh_count > refreshes
        before = len(_checked(client))
        after = await _pull(client, ids)
        changed = after[api]
        assert isinstance(changed, types.WorkspaceFullDocumentDiagnosticReport)
        assert codes(changed.items) == ["IVY005"], "erf is now defined by numpy"
        assert changed.result_id not in (None, ids[api])
        assert isinstance(after[uri(creation)], types.WorkspaceUnchangedDocumentDiagnosticReport)
        # The backend's own text changed, its findings did not.
        assert isinstance(
            after[uri(backend_path)], types.WorkspaceUnchangedDocumentDiagnosticReport
        )
        assert _checked(client)[before:] == ["workspace diagnostics: 2 of 3 files checked"]


async def test_document_pull_answers_unchanged_until_the_text_changes(workspace: Path) -> None:
    path = workspace / "ivy/functional/ivy/special.py"
    async with server(workspace, pull=True) as client:
        document = open_document(client, path)
        request = types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=document)
        )
        for _ in range(300):  # until the index is complete
            first = await client.text_document_diagnostic_async(request)
            assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
            if "IVY017" in codes(first.items):
                break
            await asyncio.sleep(0.05)
        assert sorted(codes(first.items)) == ["IVY005", "IVY017"]
        assert first.result_id
        request.previous_result_id = first.result_id
        second = await client.text_document_diagnostic_async(request)
        assert isinstance(second, types.RelatedUnchangedDocumentDiagnosticReport)
        assert second.result_id == first.result_id
        change_document(client, document, 2, SPECIAL_API.replace("def tan", "def tan_renamed"))
        renamed = await client.text_document_diagnostic_async(request)
        assert isinstance(renamed, types.RelatedUnchangedDocumentDiagnosticReport), (
            "the same findings at the same places: the id names the report, not the text"
        )
        change_document(client, document, 3, SPECIAL_API.split("\n\n\n")[1])  # erf alone
        third = await client.text_document_diagnostic_async(request)
        assert isinstance(third, types.RelatedFullDocumentDiagnosticReport)
        assert codes(third.items) == ["IVY017"]
        assert third.result_id not in (None, first.result_id)


async def test_push_clients_get_closed_files_again_after_a_cross_file_change(
    workspace: Path,
) -> None:
    """An unsaved edit of the backend (open in the editor) changes the closed API file's
    findings: they are published again."""
    api = uri(workspace / "ivy/functional/ivy/special.py")
    backend_path = workspace / "ivy/functional/backends/numpy/special.py"
    async with server(workspace, pull=False) as client:
        await published(client, api, lambda d: "IVY017" in codes(d))
        backend = open_document(client, backend_path)
        change_document(client, backend, 2, BACKEND_WITH_ERF)
        found = await published(client, api, lambda d: "IVY017" not in codes(d))
        assert codes(found) == ["IVY005"]
        # Closed without saving: the file on disk lacks erf again.
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(backend))
        )
        await published(client, api, lambda d: "IVY017" in codes(d))


async def test_push_clients_get_closed_files_again_after_a_settings_change(
    workspace: Path,
) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=False) as client:
        await published(client, api, lambda d: sorted(codes(d)) == ["IVY005", "IVY017"])
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"ivycheck": {"ignore": ["IVY005"]}})
        )
        await published(client, api, lambda d: codes(d) == ["IVY017"])


async def test_pull_clients_without_refresh_support_are_not_sent_refresh(
    workspace: Path,
) -> None:
    """They pull on their own schedule; the next pull has the change."""
    backend_path = workspace / "ivy/functional/backends/numpy/special.py"
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=True, refresh=False) as client:
        ids = await _pull_complete(client, api, wait_for_refresh=False)
        backend_path.write_text(BACKEND_WITH_ERF)
        _touch(client, backend_path)
        for _ in range(300):
            changed = (await _pull(client, ids))[api]
            if isinstance(changed, types.WorkspaceFullDocumentDiagnosticReport):
                break
            await asyncio.sleep(0.02)
        assert isinstance(changed, types.WorkspaceFullDocumentDiagnosticReport)
        assert codes(changed.items) == ["IVY005"]
        assert client.diagnostic_refresh_count == 0


async def test_open_files_scope_reports_no_closed_file_and_takes_back_what_was_sent(
    workspace: Path,
) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=True) as client:
        ids = await _pull_complete(client, api)
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(
                settings={"ivycheck": {"diagnosticsScope": "openFiles"}}
            )
        )
        for _ in range(300):  # the client's ids are answered with empty reports
            after = await _pull(client, ids)
            if all(
                isinstance(r, types.WorkspaceFullDocumentDiagnosticReport) for r in after.values()
            ):
                break
            await asyncio.sleep(0.02)
        assert set(after) == set(ids)
        assert all(
            isinstance(r, types.WorkspaceFullDocumentDiagnosticReport) and not r.items
            for r in after.values()
        ), after
        assert await _pull(client) == {}
        # Open documents are still checked, cross-file findings included.
        document = open_document(client, workspace / "ivy/functional/ivy/special.py")
        answer = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document))
        )
        assert isinstance(answer, types.RelatedFullDocumentDiagnosticReport)
        assert sorted(codes(answer.items)) == ["IVY005", "IVY017"]


async def test_push_clients_get_no_closed_file_with_the_open_files_scope(workspace: Path) -> None:
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, settings={"diagnosticsScope": "openFiles"}) as client:
        document = open_document(client, workspace / "ivy/functional/backends/numpy/special.py")
        await published(client, document, lambda d: not d)
        await asyncio.sleep(1.0)  # the index is long complete; closed files would follow
        assert api not in client.diagnostics


async def test_an_idle_workspace_pull_is_held_until_something_changes(workspace: Path) -> None:
    """A client that passes a partial-result token (VS Code, which pulls again 2 s after
    each answer) has a pull with nothing new to say held, not answered: an idle editor
    then sends nothing. A file event ends the wait with the file's new report."""
    api = uri(workspace / "ivy/functional/ivy/special.py")
    backend_path = workspace / "ivy/functional/backends/numpy/special.py"
    async with server(workspace, pull=True) as client:
        ids = await _pull_complete(client, api)
        held = asyncio.ensure_future(
            client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(
                    previous_result_ids=[
                        types.PreviousResultId(uri=u, value=v) for u, v in ids.items()
                    ],
                    partial_result_token="held-pull",
                )
            )
        )
        await asyncio.sleep(1.0)
        assert not held.done(), "an idle pull was answered"
        backend_path.write_text(BACKEND_WITH_ERF)
        _touch(client, backend_path)
        report = await asyncio.wait_for(held, 30)
        by_uri = {item.uri: item for item in report.items}
        changed = by_uri[api]
        assert isinstance(changed, types.WorkspaceFullDocumentDiagnosticReport)
        assert codes(changed.items) == ["IVY005"], "erf is now defined by numpy"


async def test_a_client_that_watches_no_files_gets_each_pull_answered(workspace: Path) -> None:
    """Without file events only a look at the files tells what changed on disk: a pull
    with a partial-result token is answered (each file unchanged), never held."""
    api = uri(workspace / "ivy/functional/ivy/special.py")
    async with server(workspace, pull=True, watch=False) as client:
        ids = await _pull_complete(client, api)
        report = await asyncio.wait_for(
            client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(
                    previous_result_ids=[
                        types.PreviousResultId(uri=u, value=v) for u, v in ids.items()
                    ],
                    partial_result_token="not-held",
                )
            ),
            30,
        )
        assert {item.uri: item.result_id for item in report.items} == ids
        assert all(
            isinstance(item, types.WorkspaceUnchangedDocumentDiagnosticReport)
            for item in report.items
        )
