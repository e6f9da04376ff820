"""Language-server latency and memory, measured through a real LSP client over stdio.

    .venv/bin/python benchmarks/lsp_latency.py                      # 500-file workspace
    .venv/bin/python benchmarks/lsp_latency.py --functions 20000    # 20k-function workspace
    .venv/bin/python benchmarks/lsp_latency.py --pause 0.3          # a typist's pauses
    .venv/bin/python benchmarks/lsp_latency.py --stages             # in-process, per stage

Writes an Ivy-style workspace (``benchmarks/corpus.py``), starts ``ivycheck lsp``, opens a
2,000-line functional-API document, then makes 50 edits, one at a time: each edit flips a
decorator order, so every edit changes the diagnostics and the time from ``didChange``
to the matching ``publishDiagnostics`` is unambiguous. Prints median and p95 latency and
the server's resident memory (from ``/proc``) after the workspace has been indexed.
Edits start once the server is ready: it logs (at ``--log-level info``) when its index is
built and when the closed files' diagnostics are published; no fixed sleep. ``--pause``
waits that long before each edit, as a typist pauses: then what the server does between
keystrokes (its idle garbage collection, re-checking the closed files after an edit that
changed what other files see) runs, and an edit sent meanwhile waits for it.

Beside the wall time, the CPU per edit of the server (from ``/proc``) and of this client
(JSON, the protocol's types, the document's text), and the load average: on a shared
machine the wall time grows with the load, the CPU hardly. ``--stages`` runs the server's
per-edit work in this process instead, stage by stage (thread CPU time, medians): the
parse of the edited buffer (``lsp/reparse.py``) against a parse of the whole text, the
index's summary of the buffer, the rules' check, the conversion to LSP diagnostics.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import API_HEADER, generate

GOOD = "@handle_out_argument\n@to_native_arrays_and_back\n"
BAD = "@to_native_arrays_and_back\n@handle_out_argument\n"
FUNCTION = '''

@handle_exceptions
@handle_nestable
{order}@handle_array_function
def big_{number}(x, /, *, axis=None, out: Optional[ivy.Array] = None):
    """Generated function {number} of the big document."""
    if axis is not None:
        x = ivy.moveaxis(x, axis, -1)
    y = ivy.multiply(x, {number})
    return current_backend(x).big_{number}(y, out=out)
'''


def big_document(lines: int, bad: set[int]) -> str:
    parts = [API_HEADER.format(number=0)]
    number = 0
    while sum(part.count("\n") for part in parts) < lines:
        parts.append(FUNCTION.format(number=number, order=BAD if number in bad else GOOD))
        number += 1
    return "".join(parts)


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, from ``/proc``): what an edit costs
    the server whatever else the machine runs, where wall time grows with the load."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def measure(root: Path, functions: int, edits: int, lines: int, pause: float) -> None:
    generate(root, functions)
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    document_path = root / "ivy/functional/ivy/big.py"
    document_path.write_text(big_document(lines, set()))
    files = sum(1 for _ in root.rglob("*.py"))
    document = from_fs_path(str(document_path))
    assert document is not None

    client = LanguageClient("latency-benchmark", "1")
    arrived: dict[int, float] = {}
    counts: dict[int, int] = {}

    logged: list[tuple[float, str]] = []

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        logged.append((time.perf_counter(), params.message))

    async def wait_logged(prefix: str, timeout: float = 600.0) -> float:
        """When the server logged a line starting with ``prefix`` (waits for it)."""
        deadline = time.perf_counter() + timeout
        while True:
            for at, message in logged:
                if message.startswith(prefix):
                    return at
            if time.perf_counter() > deadline:
                raise SystemExit(f"the server never logged {prefix!r}; it logged {logged}")
            await asyncio.sleep(0.01)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == document and params.version is not None:
            arrived[params.version] = time.perf_counter()
            counts[params.version] = len(params.diagnostics)

    # --log-level info: the server logs when its index is built and when the closed
    # files' diagnostics are published (a push client's workspace results), the two
    # pieces of work that would otherwise race the first edits.
    await client.start_io(sys.executable, "-m", "ivycheck", "lsp", "--log-level", "info")
    assert client._server is not None
    pid = client._server.pid
    started = time.perf_counter()
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=from_fs_path(str(root)),
            workspace_folders=[types.WorkspaceFolder(uri=from_fs_path(str(root)) or "", name="w")],
        )
    )
    client.initialized(types.InitializedParams())
    text = document_path.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=document, language_id="python", version=1, text=text
            )
        )
    )
    while 1 not in arrived:
        await asyncio.sleep(0.005)
    first = arrived[1] - started
    # Ready: the index is built and the closed files' diagnostics are out (no fixed sleep).
    index_built = await wait_logged("index built:") - started
    published = await wait_logged("workspace diagnostics up to date:") - started
    indexed = time.perf_counter() - started
    memory = rss_mib(pid)
    latencies = []
    per_edit = []
    load_before = os.getloadavg()
    cpu_before = cpu_seconds(pid)
    client_before = time.process_time()
    for edit in range(edits):
        version = edit + 2
        bad = {edit % 40} if edit % 2 == 0 else set()
        new_text = big_document(lines, bad)
        if pause:
            await asyncio.sleep(pause)
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=document, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=new_text)],
            )
        )
        while version not in arrived:
            await asyncio.sleep(0.001)
        latencies.append((arrived[version] - sent) * 1000)
        per_edit.append(latencies[-1])
        assert counts[version] == counts[1] + len(bad), (version, counts[version], bad)
    cpu_per_edit = (cpu_seconds(pid) - cpu_before) / edits * 1000
    client_per_edit = (time.process_time() - client_before) / edits * 1000
    memory_after = rss_mib(pid)
    load_after = os.getloadavg()
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    latencies.sort()
    p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)]
    print(f"workspace: {files} files, {functions} functions; document {lines} lines")
    print(
        f"{pause} s before each edit; load average (1, 5, 15 min) before the edits "
        f"{' '.join(f'{x:.2f}' for x in load_before)}, after {' '.join(f'{x:.2f}' for x in load_after)}"
    )
    print(
        f"from start: first diagnostics {first:.2f} s, index built {index_built:.2f} s, "
        f"closed files' diagnostics published {published:.2f} s, ready {indexed:.2f} s"
    )
    slow = [
        (n + 1, round(ms)) for n, ms in enumerate(per_edit) if ms > 3 * statistics.median(per_edit)
    ]
    print(f"edits over 3x the median (edit number, ms): {slow or 'none'}")
    print(
        f"didChange -> diagnostics over {edits} edits: median {statistics.median(latencies):.1f} ms,"
        f" p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms"
    )
    print(
        f"CPU per edit (user + system, mean): server {cpu_per_edit:.1f} ms, "
        f"this client {client_per_edit:.1f} ms"
    )
    print(f"server RSS: {memory:.0f} MiB after indexing, {memory_after:.0f} MiB after the edits")


def stages(root: Path, functions: int, edits: int, lines: int) -> None:
    """The server's per-edit work in this process, by stage (see the module doc)."""
    from ivycheck.checker.base import trees
    from ivycheck.checker.base.isolation import call_with_deep_stack
    from ivycheck.checker.run.projects import Projects
    from ivycheck.lsp.buffers import Buffers
    from ivycheck.lsp.convert import split_lines, to_lsp_diagnostic
    from ivycheck.lsp.reparse import ParsedText, parse_text

    generate(root, functions)
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    path = root / "ivy/functional/ivy/big.py"
    path.write_text(big_document(lines, set()))
    project = Projects(tolerant=True)
    project.scan([root])
    gc.freeze()  # as the server does once its index is built
    texts = [big_document(lines, {n % 40} if n % 2 == 0 else set()) for n in range(edits + 1)]
    times: dict[str, list[float]] = {}

    def timed(stage: str, work: Any) -> Any:
        started = time.thread_time()
        result = work()
        times.setdefault(stage, []).append((time.thread_time() - started) * 1000)
        return result

    def edit(text: str, previous: ParsedText) -> ParsedText:
        timed("ast.parse of the whole text (before)", lambda: trees.parse(text))
        parsed: ParsedText = timed(
            "parse of the edited statements", lambda: parse_text(text, previous)
        )
        timed("summary into the index", lambda: project.update(path, text, tree=parsed.tree))
        found = timed("rules' check", lambda: project.check(path, text))
        timed("to LSP diagnostics", lambda: to_lsp(found, text))
        return parsed

    def to_lsp(found: list[Any], text: str) -> None:
        lines = split_lines(text)
        for diagnostic in found:
            to_lsp_diagnostic(diagnostic, lines)

    def run() -> None:  # on the engine's deep-stack thread: no hop inside the check
        parsed = parse_text(texts[0])
        project.update(path, texts[0], tree=parsed.tree)
        for text in texts[1:]:
            parsed = edit(text, parsed)
        buffers = Buffers(project)
        for text in texts:
            timed(
                "the whole edit (Buffers.check)", partial(buffers.check, path, text, lambda: True)
            )
        del times["the whole edit (Buffers.check)"][0]  # the first text: not an edit

    load_before = os.getloadavg()
    call_with_deep_stack(run)
    load_after = os.getloadavg()
    print(f"in-process, {edits} edits of a {lines}-line document, {functions} functions")
    print(
        f"load average (1, 5, 15 min) before {' '.join(f'{x:.2f}' for x in load_before)}, "
        f"after {' '.join(f'{x:.2f}' for x in load_after)}"
    )
    for stage, values in times.items():
        values.sort()
        p95 = values[max(0, round(0.95 * len(values)) - 1)]
        print(f"{stage}: median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms (thread CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=5000, help="5,000 = 500 files")
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument(
        "--pause", type=float, default=0.0, help="seconds to wait before each edit (default 0)"
    )
    parser.add_argument(
        "--stages", action="store_true", help="the server's per-edit work in-process, by stage"
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivycheck-lsp-bench-") as directory:
        if options.stages:
            stages(Path(directory), options.functions, options.edits, options.lines)
            return
        asyncio.run(
            measure(Path(directory), options.functions, options.edits, options.lines, options.pause)
        )


if __name__ == "__main__":
    main()
