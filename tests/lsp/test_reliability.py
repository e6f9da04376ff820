"""The language server under abuse (issue 8): requests for documents nobody opened,
1,000 ``didChange`` in a second, many open/close cycles, a client that vanishes mid-check. The server
stays up (or exits when its client is gone), its memory stays bounded (RSS from /proc), and
the last diagnostics published are those of the last text. Malformed JSON-RPC and unknown
methods are in ``test_server.py``.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from tests.helpers import write_tree
from tests.lsp.harness import (
    RawConnection,
    change_document,
    codes,
    open_document,
    published,
    rss_bytes,
    server,
    server_pid,
    uri,
)

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(sys.platform != "linux", reason="reads RSS from /proc"),
]

BAD = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""
GOOD = BAD.replace(
    "@to_native_arrays_and_back\n@handle_out_argument\n",
    "@handle_out_argument\n@to_native_arrays_and_back\n",
)
API = "ivy/functional/ivy/elementwise.py"
MiB = 1024 * 1024


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(tmp_path, {"pyproject.toml": "[tool.ivycheck]\n", API: BAD})


async def _still_answers(client, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    """The server is alive and right: a fresh document gets its IVY005."""
    probe = workspace / "ivy/functional/ivy/probe.py"
    document = open_document(client, probe, BAD)
    await published(client, document, lambda d: codes(d) == ["IVY005"])


async def test_requests_for_documents_nobody_opened(workspace: Path) -> None:
    missing = uri(workspace / "ivy/functional/ivy/missing.py")
    async with server(workspace) as client:
        position = types.Position(line=0, character=0)
        for request in (
            client.text_document_hover_async(
                types.HoverParams(types.TextDocumentIdentifier(uri=missing), position)
            ),
            client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=missing),
                    range=types.Range(position, position),
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
        ):
            try:
                answer = await asyncio.wait_for(request, 30)
            except TimeoutError:
                raise
            except Exception:  # noqa: BLE001 - an error response is a fine answer
                continue
            assert not answer
        # Changes and closes for documents never opened are ignored, not fatal.
        change_document(client, missing, 2, BAD)
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=missing))
        )
        await _still_answers(client, workspace)


async def test_a_thousand_changes_in_a_second(workspace: Path) -> None:
    async with server(workspace) as client:
        pid = server_pid(client)
        document = open_document(client, workspace / API, BAD)
        await published(client, document, lambda d: codes(d) == ["IVY005"])
        baseline = rss_bytes(pid)
        started = asyncio.get_running_loop().time()
        for version in range(2, 1002):
            text = (GOOD if version % 2 else BAD) + f"# edit {version}\n" * (version % 7)
            change_document(client, document, version, text)
            if version % 100 == 0:
                await asyncio.sleep(0)
        assert asyncio.get_running_loop().time() - started < 5
        # The last text (version 1001) is GOOD: its diagnostics must be empty, and stay so.
        final = GOOD + "# edit 1001\n" * (1001 % 7)
        change_document(client, document, 1002, final)
        await published(client, document, lambda d: not d, timeout=60)
        await asyncio.sleep(1.0)
        assert list(client.diagnostics[document]) == []
        grown = rss_bytes(pid) - baseline
        assert grown < 200 * MiB, f"RSS grew by {grown / MiB:.0f} MiB"
        # ... and the server is still right about new text.
        change_document(client, document, 1003, BAD)
        await published(client, document, lambda d: codes(d) == ["IVY005"])


async def test_memory_is_bounded_over_many_open_close_cycles(workspace: Path) -> None:
    async with server(workspace) as client:
        pid = server_pid(client)
        path = workspace / API
        for round_ in range(3):
            for n in range(100):
                document = open_document(client, path.with_name(f"tmp{n}.py"), BAD * 20)
                client.text_document_did_close(
                    types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=document))
                )
            await _still_answers(client, workspace)
            if round_ == 0:
                baseline = rss_bytes(pid)
        grown = rss_bytes(pid) - baseline
        assert grown < 100 * MiB, f"RSS grew by {grown / MiB:.0f} MiB over 200 documents"


async def test_client_vanishing_mid_check_ends_the_server(workspace: Path) -> None:
    raw = await RawConnection.start()
    try:
        first = await raw.request(
            "initialize", {"processId": None, "rootUri": uri(workspace), "capabilities": {}}
        )
        await raw.response(first)
        await raw.notify("initialized", {})
        big = BAD + "".join(f"def f{n}(x):\n    return x\n" for n in range(40_000))
        await raw.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri(workspace / API),
                    "languageId": "python",
                    "version": 1,
                    "text": big,
                }
            },
        )
        await asyncio.sleep(0.2)  # the check is running
        returncode = await raw.close()  # stdin closed: no shutdown, no exit
        assert returncode is not None
    finally:
        if raw.process.returncode is None:
            raw.process.kill()
            pytest.fail("the server outlived its client")
