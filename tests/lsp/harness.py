"""Drive the real server (a subprocess over stdio) with pytest-lsp's client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "ivycheck", "lsp"]


SPECIAL_API = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
def erf(x, /, *, out=None):
    return current_backend(x).erf(x, out=out)
"""
"""An API module with one finding of its own (IVY005 on ``tan``) and one that needs the
index (IVY017: ``erf`` is defined by no backend) once it sits beside :data:`NUMPY_TAN`."""

NUMPY_TAN = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


tan.support_native_out = True
"""
"""A clean NumPy backend module defining ``tan`` only."""


def capabilities(
    *, pull: bool, refresh: bool | None = None, watch: bool = True
) -> types.ClientCapabilities:
    """Neovim's capabilities with or without pull diagnostics (and, by default with them,
    ``workspace/diagnostic/refresh``), and file watching (unless not ``watch``)."""
    caps = client_capabilities("neovim")
    assert caps.text_document is not None and caps.workspace is not None
    caps.text_document.diagnostic = (
        types.DiagnosticClientCapabilities(dynamic_registration=False) if pull else None
    )
    caps.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
        refresh_support=pull if refresh is None else refresh
    )
    caps.workspace.did_change_watched_files = types.DidChangeWatchedFilesClientCapabilities(
        dynamic_registration=watch
    )
    caps.workspace.configuration = True
    return caps


def uri(path: Path) -> str:
    found = from_fs_path(str(path))
    assert found is not None
    return found


@contextlib.asynccontextmanager
async def server(
    root: Path,
    *,
    pull: bool = False,
    refresh: bool | None = None,
    watch: bool = True,
    env: Mapping[str, str] | None = None,
    settings: dict[str, Any] | None = None,
) -> AsyncIterator[LanguageClient]:
    config = ClientServerConfig(server_command=SERVER, server_env={**os.environ, **(env or {})})
    client = await config.start()
    assert isinstance(client, LanguageClient)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        client.registrations = [*getattr(client, "registrations", []), *params.registrations]

    client.set_configuration({"ivycheck": settings or {}})
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(pull=pull, refresh=refresh, watch=watch),
            root_uri=uri(root),
            workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
        )
    )
    try:
        yield client
    finally:
        await client.shutdown_session()
        await client.stop()


def open_document(client: LanguageClient, path: Path, text: str | None = None) -> str:
    document = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=document,
                language_id="python",
                version=1,
                text=path.read_text() if text is None else text,
            )
        )
    )
    return document


def change_document(client: LanguageClient, document: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=document, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def published(
    client: LanguageClient,
    document: str,
    until: Callable[[Sequence[types.Diagnostic]], bool],
    timeout: float = 30.0,
) -> Sequence[types.Diagnostic]:
    """Wait until the diagnostics published for ``document`` satisfy ``until``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = client.diagnostics.get(document)
        if found is not None and until(found):
            return found
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"diagnostics for {document} never matched; last: {found}")
        await asyncio.sleep(0.02)


def codes(diagnostics: Sequence[types.Diagnostic]) -> list[str]:
    return [str(d.code) for d in diagnostics]


def apply_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    """Apply LSP text edits (UTF-16 positions; this test text is ASCII) to ``text``."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


class RawConnection:
    """Bytes-level JSON-RPC over the server's stdio, for messages a real client never sends."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0

    @classmethod
    async def start(cls) -> RawConnection:
        process = await asyncio.create_subprocess_exec(
            *SERVER,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return cls(process)

    async def send_bytes(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await self.process.stdin.drain()

    async def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        await self.send_bytes(
            json.dumps(
                {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
            ).encode()
        )
        return self.next_id

    async def notify(self, method: str, params: Any) -> None:
        await self.send_bytes(
            json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode()
        )

    async def read(self, timeout: float = 30.0) -> dict[str, Any]:
        assert self.process.stdout is not None
        length = 0
        while True:
            line = await asyncio.wait_for(self.process.stdout.readline(), timeout)
            if not line:
                raise EOFError("server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        body = await asyncio.wait_for(self.process.stdout.readexactly(length), timeout)
        message: dict[str, Any] = json.loads(body)
        return message

    async def response(self, request_id: int, timeout: float = 30.0) -> dict[str, Any]:
        """The response to ``request_id``, skipping notifications and server requests."""
        while True:
            message = await self.read(timeout)
            if message.get("id") == request_id and "method" not in message:
                return message

    async def close(self) -> int:
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        return await asyncio.wait_for(self.process.wait(), 30)


def server_pid(client: LanguageClient) -> int:
    """The process id of the server a pytest-lsp client started."""
    process = getattr(client, "_server", None)
    assert process is not None, "the client did not start a server process"
    return int(process.pid)


def rss_bytes(pid: int) -> int:
    """Resident set size of a live process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")
