"""Workspace diagnostics (``workspace/diagnostic``) on a 500-file workspace, as VS Code pulls them.

    .venv/bin/python benchmarks/lsp_workspace_diagnostics.py                 # 500 files
    .venv/bin/python benchmarks/lsp_workspace_diagnostics.py --functions 20000

Writes an Ivy-style workspace (``benchmarks/corpus.py``), starts ``ivycheck lsp`` through a
real LSP client over stdio with pull diagnostics, waits until the index is complete (the
server's first ``workspace/diagnostic/refresh``; a server that sends none: 20 s), then
times four pulls, each sending back the result ids of the previous answer:

1. the first pull (every file checked);
2. the same pull again, nothing changed;
3. after a backend file gains a function no API file asks about (saved, watched-file event);
4. after a backend file gains a function an API file delegates to (its IVY017 goes).

For each: seconds, how many reports are full / unchanged, and the server's own count of
files it checked (its ``workspace diagnostics: N of M files checked`` log line, if any).

Then the idle cost (``--idle-seconds``, default 20): the client pulls as VS Code does
(it watches files, and pulls with a partial-result token and the ids it holds, again 2 s
after each answer) while nothing changes; reported: the pulls answered and the server's
CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import generate

CHECKED = re.compile(r"workspace diagnostics: (\d+) of (\d+) files checked")


def _uri(path: Path) -> str:
    found = from_fs_path(str(path))
    assert found is not None
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    root: Path, idle_seconds: float
) -> tuple[list[tuple[str, float, int, int, str]], tuple[int, float]]:
    client = LanguageClient("workspace-diagnostics-benchmark", "1")
    logged: list[str] = []

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        logged.append(params.message)

    refreshes: list[float] = []

    @client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
    def on_refresh(params: None) -> None:
        refreshes.append(time.perf_counter())

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        return None  # the file watching VS Code does: the benchmark sends the events

    await client.start_io(sys.executable, "-m", "ivycheck", "lsp", "--log-level", "info")
    root_uri = _uri(root)
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                text_document=types.TextDocumentClientCapabilities(
                    diagnostic=types.DiagnosticClientCapabilities()
                ),
                workspace=types.WorkspaceClientCapabilities(
                    diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
                    did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                        dynamic_registration=True
                    ),
                ),
            ),
            root_uri=root_uri,
            workspace_folders=[types.WorkspaceFolder(uri=root_uri, name="w")],
        )
    )
    client.initialized(types.InitializedParams())
    ids: dict[str, str] = {}

    async def pull(label: str) -> tuple[str, float, int, int, str]:
        before = len(logged)
        started = time.perf_counter()
        report = await client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(
                previous_result_ids=[types.PreviousResultId(uri=u, value=v) for u, v in ids.items()]
            )
        )
        seconds = time.perf_counter() - started
        full = unchanged = 0
        for item in report.items:
            if isinstance(item, types.WorkspaceFullDocumentDiagnosticReport):
                full += 1
            else:
                unchanged += 1
            if item.result_id:
                ids[item.uri] = item.result_id
        counts = [m.group(0) for line in logged[before:] if (m := CHECKED.search(line))]
        return label, seconds, full, unchanged, counts[-1] if counts else "-"

    deadline = time.perf_counter() + 20
    while not refreshes and time.perf_counter() < deadline:  # sent once the index is complete
        await asyncio.sleep(0.05)
    results = [await pull("first pull"), await pull("again, nothing changed")]
    backend = root / "ivy/functional/backends/numpy/module_0001.py"
    for label, added in (
        ("a backend gains a function nobody asks about", "unrelated_helper"),
        ("a backend gains the function an API file delegates to", "fn_16"),
    ):
        with backend.open("a") as handle:
            handle.write(f"\n\ndef {added}(x, /, *, out=None):\n    return x\n")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=_uri(backend), type=types.FileChangeType.Changed)]
            )
        )
        await asyncio.sleep(0.5)  # the event is handled before the pull
        results.append(await pull(label))
    idle = await idle_pulls(client, ids, idle_seconds)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return results, idle


async def idle_pulls(
    client: LanguageClient, ids: dict[str, str], seconds: float
) -> tuple[int, float]:
    """VS Code's loop for ``seconds`` of an idle workspace: pulls answered, server CPU s."""
    server = getattr(client, "_server", None)
    pid = server.pid if server is not None else None
    answered = 0
    before = cpu_seconds(pid) if pid else 0.0
    deadline = time.perf_counter() + seconds

    async def loop() -> None:
        nonlocal answered
        while True:
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(
                    previous_result_ids=[
                        types.PreviousResultId(uri=u, value=v) for u, v in ids.items()
                    ],
                    partial_result_token=f"idle-{answered}",
                )
            )
            answered += 1
            for item in report.items:
                if item.result_id:
                    ids[item.uri] = item.result_id
            await asyncio.sleep(2.0)

    task = asyncio.ensure_future(loop())
    await asyncio.sleep(max(0.0, deadline - time.perf_counter()))
    used = cpu_seconds(pid) - before if pid else float("nan")
    task.cancel()
    return answered, used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=5000, help="5,000 = 500 files")
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivycheck-lsp-workspace-") as directory:
        root = Path(directory)
        files = generate(root, options.functions)
        (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
        print(f"workspace: {len(files)} files, {options.functions} functions")
        print("| pull | seconds | full | unchanged | server log |")
        print("|---|---:|---:|---:|---|")
        results, (answered, used) = asyncio.run(measure(root, options.idle_seconds))
        for label, seconds, full, unchanged, checked in results:
            print(f"| {label} | {seconds:.2f} | {full} | {unchanged} | {checked} |")
        print(
            f"idle {options.idle_seconds:.0f} s, pulling as VS Code does: {answered} pulls "
            f"answered, server CPU {used:.2f} s ({used / options.idle_seconds * 100:.2f} % of a core)"
        )


if __name__ == "__main__":
    main()
