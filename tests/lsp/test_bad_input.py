"""Bad input cannot break the server (issue 22, item 7), spoken over the real server's
stdin/stdout: a ``Content-Length`` far too large is refused, not a crash; one too short
costs one message, after which the server answers again; requests name only files it may
read (``file:`` URIs inside the workspace folders); errors carry no Python traceback."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.helpers import write_tree
from tests.lsp.harness import SERVER, SPECIAL_API, RawConnection, uri

pytestmark = pytest.mark.asyncio

API = "ivy/functional/ivy/elementwise.py"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "ws", {"pyproject.toml": "[tool.ivycheck]\n", API: SPECIAL_API})


@pytest_asyncio.fixture
async def raw(workspace: Path) -> AsyncIterator[RawConnection]:
    connection = await RawConnection.start()
    try:
        first = await connection.request(
            "initialize",
            {
                "processId": None,
                "rootUri": uri(workspace),
                "workspaceFolders": [{"uri": uri(workspace), "name": "ws"}],
                "capabilities": {"textDocument": {"diagnostic": {}}},
            },
        )
        assert "result" in await connection.response(first)
        await connection.notify("initialized", {})
        yield connection
    finally:
        if connection.process.returncode is None:
            connection.process.kill()
            await connection.process.wait()


async def _diagnostics(raw: RawConnection, document: str) -> dict[str, Any]:
    request = await raw.request("textDocument/diagnostic", {"textDocument": {"uri": document}})
    return await raw.response(request)


async def _answers(raw: RawConnection, workspace: Path) -> None:
    """The server is alive and right: the API file's IVY005 comes back."""
    answer = await _diagnostics(raw, uri(workspace / API))
    assert "IVY005" in [item["code"] for item in answer["result"]["items"]], answer


async def _error(raw: RawConnection) -> dict[str, Any]:
    """The next error message (skipping the server's notifications and requests)."""
    while True:
        message = await raw.read()
        if "error" in message:
            error: dict[str, Any] = message["error"]
            return {"id": message["id"], **error}


async def test_a_huge_content_length_is_refused_and_the_server_goes_on(
    raw: RawConnection, workspace: Path
) -> None:
    assert raw.process.stdin is not None
    raw.process.stdin.write(b"Content-Length: 99999999999\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 1')
    await raw.process.stdin.drain()
    error = await _error(raw)
    assert error["id"] is None
    assert error["code"] == -32600
    assert "99999999999" in error["message"] and "limit" in error["message"]
    await _answers(raw, workspace)
    assert raw.process.returncode is None


async def test_a_content_length_with_a_thousand_digits_is_refused(
    raw: RawConnection, workspace: Path
) -> None:
    assert raw.process.stdin is not None
    raw.process.stdin.write(b"Content-Length: " + b"9" * 1000 + b"\r\n\r\n")
    await raw.process.stdin.drain()
    assert (await _error(raw))["code"] == -32600
    await _answers(raw, workspace)


async def test_a_too_short_content_length_costs_one_message(
    raw: RawConnection, workspace: Path
) -> None:
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 99,
            "method": "textDocument/diagnostic",
            "params": {"textDocument": {"uri": uri(workspace / API)}},
        }
    ).encode()
    assert raw.process.stdin is not None
    raw.process.stdin.write(b"Content-Length: %d\r\n\r\n" % (len(body) - 10) + body)
    await raw.process.stdin.drain()
    error = await _error(raw)
    assert (error["id"], error["code"]) == (None, -32700)
    # The body's last ten bytes are still in the stream, before the next header.
    await _answers(raw, workspace)


async def test_noise_between_messages_and_a_megabyte_without_newline(
    raw: RawConnection, workspace: Path
) -> None:
    assert raw.process.stdin is not None
    raw.process.stdin.write(b"hello\r\n\r\nX-Junk: 1\r\n" + b"x" * (1024 * 1024))
    await raw.process.stdin.drain()
    await _answers(raw, workspace)


async def test_a_file_outside_the_workspace_is_not_read(
    raw: RawConnection, workspace: Path, tmp_path: Path
) -> None:
    secret = write_tree(tmp_path / "elsewhere", {"secret.py": SPECIAL_API}) / "secret.py"
    link = workspace / "ivy/functional/ivy/link.py"
    link.symlink_to(secret)
    for document in (
        "file:///etc/passwd",
        uri(secret),
        uri(link),  # a link out of the folder
        uri(workspace / ".." / "elsewhere" / "secret.py"),
        "file://otherhost" + str(workspace / API),
    ):
        answer = await _diagnostics(raw, document)
        assert "result" not in answer, (document, answer)
        assert answer["error"]["code"] == -32602
        assert "workspace folders" in answer["error"]["message"]
        assert "data" not in answer["error"]
        assert "root:" not in json.dumps(answer)
    await _answers(raw, workspace)


async def test_an_http_uri_is_not_read_as_a_local_file(raw: RawConnection, workspace: Path) -> None:
    # http://host/<the API file's absolute path> would name that file if its path were used.
    answer = await _diagnostics(raw, "http://example.com" + str(workspace / API))
    assert answer["error"]["code"] == -32602
    assert "IVY005" not in json.dumps(answer)


async def test_a_missing_file_gets_an_error_without_a_traceback(
    raw: RawConnection, workspace: Path
) -> None:
    missing = uri(workspace / "ivy/functional/ivy/missing.py")
    for method, params in (
        ("textDocument/diagnostic", {"textDocument": {"uri": missing}}),
        (
            "textDocument/hover",
            {"textDocument": {"uri": missing}, "position": {"line": 0, "character": 0}},
        ),
    ):
        request = await raw.request(method, params)
        answer = await raw.response(request)
        error = answer["error"]
        assert error["code"] == -32602, answer
        assert "missing.py" in error["message"]
        assert "data" not in error
        assert "Traceback" not in json.dumps(answer) and 'File "' not in json.dumps(answer)
    await _answers(raw, workspace)


async def test_an_open_document_is_checked_whatever_its_uri(
    raw: RawConnection, workspace: Path
) -> None:
    """The text of an open document comes from the client: nothing is read."""
    document = uri(workspace / "ivy/functional/ivy/unsaved.py")
    await raw.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": document,
                "languageId": "python",
                "version": 1,
                "text": SPECIAL_API,
            }
        },
    )
    answer = await _diagnostics(raw, document)
    assert "IVY005" in [item["code"] for item in answer["result"]["items"]]


async def test_the_server_log_is_quiet_by_default(workspace: Path) -> None:
    """A cancel for a request already answered (VS Code sends many) logs nothing at the
    default level; a refused message logs one line, without a traceback."""
    process = await asyncio.create_subprocess_exec(
        *SERVER,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    raw = RawConnection(process)
    try:
        first = await raw.request(
            "initialize", {"processId": None, "rootUri": uri(workspace), "capabilities": {}}
        )
        await raw.response(first)
        await raw.notify("initialized", {})
        for request_id in range(1, 20):
            await raw.notify("$/cancelRequest", {"id": request_id})
        shutdown = await raw.request("shutdown", None)
        await raw.response(shutdown)
        await raw.notify("exit", None)
        assert await raw.close() == 0
        assert process.stderr is not None
        log = (await process.stderr.read()).decode()
        assert log == "", log
    finally:
        if process.returncode is None:
            process.kill()
