"""A window reload against a shared language server: the new client's first findings.

    .venv/bin/python benchmarks/lsp_shared_reload.py --workspace ../shared/corpora/ivy-975c8fc
    .venv/bin/python benchmarks/lsp_shared_reload.py --workspace ... --marker --reloads 10

Copies the tree given into a temporary folder (with ``--marker``, a ``pyproject.toml`` at
its top), starts ``ivycheck lsp --shared <socket>`` as the VS Code extension does (a
detached process, connected to as soon as it accepts), and opens a functional-API module
with a first client, as an editor restoring its tabs: the cold start. Once the index is
built, each "reload" drops the connection without a word (a window reload ends the
extension host) and connects a new client at once, which initializes and opens the same
module: from the connection to the first ``publishDiagnostics`` holding a finding, and to
the one with the cross-file findings (the same count as the cold start's last). The
server's CPU time per reload and its memory before and after them come from ``/proc``. The client is a plain JSON-RPC
connection (no LSP library): the figures are the server's and the socket's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from lsp_latency import cpu_seconds, rss_mib

DOCUMENT = "ivy/functional/ivy/experimental/manipulation.py"


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Client:
    """A connection to the shared server: its greeting line, then LSP."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.published: list[tuple[float, int]] = []
        """(time, findings) of each publishDiagnostics for the document."""
        self.logs: list[str] = []
        self.task: asyncio.Task[None] | None = None

    @classmethod
    async def connect(cls, sock: Path) -> Client:
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(str(sock))
                break
            except (FileNotFoundError, ConnectionRefusedError):
                await asyncio.sleep(0.01)
        client = cls(reader, writer)
        greeting = (await reader.readline()).decode()
        if " ready " not in greeting:
            raise SystemExit(f"not served: {greeting!r}")
        return client

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def read(self, document: str) -> None:
        while True:
            length = 0
            while (line := await self.reader.readline()) not in (b"\r\n", b"\n"):
                if not line:
                    return
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(await self.reader.readexactly(length))
            method = message.get("method")
            if method == "textDocument/publishDiagnostics":
                if message["params"]["uri"] == document:
                    found = len(message["params"]["diagnostics"])
                    self.published.append((time.perf_counter(), found))
            elif method == "window/logMessage":
                self.logs.append(message["params"]["message"])
            elif method is not None and "id" in message:
                self.send({"id": message["id"], "result": None})

    async def open(self, root: Path, path: Path) -> None:
        self.task = asyncio.ensure_future(self.read(uri(path)))
        folders = [{"uri": uri(root), "name": root.name}]
        self.send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "processId": os.getpid(),
                    "rootUri": uri(root),
                    "workspaceFolders": folders,
                    "capabilities": {},
                },
            }
        )
        self.send({"method": "initialized", "params": {}})
        item = {"uri": uri(path), "languageId": "python", "version": 1, "text": path.read_text()}
        self.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})

    async def until(self, test: Any, timeout: float = 300.0) -> float:
        deadline = time.perf_counter() + timeout
        while not test(self):
            if time.perf_counter() > deadline:
                raise SystemExit(f"timed out; published {self.published}, log {self.logs[-5:]}")
            await asyncio.sleep(0.002)
        return time.perf_counter()

    def leave(self) -> None:
        self.writer.close()
        if self.task is not None:
            self.task.cancel()


def first_findings(client: Client) -> float | None:
    return next((at for at, found in client.published if found), None)


async def run(workspace: Path, sock: Path, reloads: int) -> None:
    document = workspace / DOCUMENT
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "ivycheck", "lsp", "--shared", str(sock), "--log-level", "info"],
        cwd=workspace,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        client = await Client.connect(sock)
        connected = time.perf_counter()
        await client.open(workspace, document)
        first = await client.until(lambda c: first_findings(c) is not None)
        await client.until(lambda c: any(line.startswith("index built") for line in c.logs))
        await asyncio.sleep(1.0)  # the re-checks after the index
        complete = client.published[-1][1]
        whole = next(at for at, found in client.published if found == complete)
        print(
            f"cold start: process started -> accepts {connected - started:.2f} s, "
            f"-> first findings {first - started:.2f} s, -> all {complete} findings (with "
            f"the index) {whole - started:.2f} s"
        )
        memory = rss_mib(process.pid)
        firsts, wholes, cpus = [], [], []
        for _ in range(reloads):
            client.leave()
            await asyncio.sleep(0.05)  # the server forgets the client
            cpu = cpu_seconds(process.pid)
            begun = time.perf_counter()
            client = await Client.connect(sock)
            await client.open(workspace, document)
            first = await client.until(lambda c: first_findings(c) is not None)
            whole = await client.until(lambda c: any(n == complete for _, n in c.published))
            firsts.append(first - begun)
            wholes.append(whole - begun)
            cpus.append(cpu_seconds(process.pid) - cpu)
            await asyncio.sleep(0.5)
        if reloads:
            print(
                f"reload ({reloads}x, medians): connect -> first findings "
                f"{statistics.median(firsts) * 1000:.0f} ms, -> all {complete} findings "
                f"{statistics.median(wholes) * 1000:.0f} ms (max {max(wholes) * 1000:.0f} "
                f"ms); server CPU {statistics.median(cpus) * 1000:.0f} ms; server memory "
                f"{memory:.0f} -> {rss_mib(process.pid):.0f} MiB"
            )
        client.leave()
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workspace", type=Path, required=True)
    parser.add_argument("--marker", action="store_true", help="a pyproject.toml at its top")
    parser.add_argument("--reloads", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivy-shared-") as tmp:
        workspace = Path(tmp) / "ws"
        shutil.copytree(
            args.workspace, workspace, ignore=shutil.ignore_patterns(".ivycheck*", ".git")
        )
        if args.marker:
            (workspace / "pyproject.toml").write_text("[tool.ivycheck]\n")
        asyncio.run(run(workspace, Path(tmp) / "run" / "s.sock", args.reloads))


if __name__ == "__main__":
    main()
