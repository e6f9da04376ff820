"""Time to the first diagnostics of a document opened as the language server starts.

    .venv/bin/python benchmarks/lsp_first_diagnostics.py                 # 500 files
    .venv/bin/python benchmarks/lsp_first_diagnostics.py --functions 20000
    .venv/bin/python benchmarks/lsp_first_diagnostics.py --pull \\
        --workspace ../shared/corpora/ivy-975c8fc [--marker]             # as VS Code asks

Writes an Ivy-style workspace (``benchmarks/corpus.py``: 5,000 functions are 500 files), or
copies the tree given with ``--workspace`` into a temporary folder (with ``--marker``, a
``pyproject.toml`` at its top; without, none: a checkout of a package folder). Then,
through a real LSP client over stdio, starts ``ivycheck lsp`` and opens a functional-API
module right after ``initialized``, as an editor restoring its tabs does.

Push (the default): reports, from ``didOpen``, the first ``publishDiagnostics`` for it
that holds a finding, and the first one after the server logged that its index is built
(the cross-file findings). ``--pull``: the client declares pull diagnostics, refresh and
work-done progress support, as VS Code does; it pulls the document right after
``didOpen`` and again on each ``workspace/diagnostic/refresh``: the same two moments, by
the answers. Also the number of ``$/progress`` notifications seen, and the server's CPU
time from its start to the first findings (``/proc``: the server's own cost, which the
machine's load changes far less than the wall times). With no on-disk cache;
with the cache the server saved on its previous start; with the one ``ivycheck .`` wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import generate
from lsp_latency import cpu_seconds

GENERATED_DOCUMENT = "ivy/functional/ivy/module_0000.py"
CORPUS_DOCUMENT = "ivy/functional/ivy/experimental/manipulation.py"


def _capabilities(pull: bool) -> types.ClientCapabilities:
    if not pull:
        return types.ClientCapabilities()
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities()
        ),
        workspace=types.WorkspaceClientCapabilities(
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )


async def first_diagnostics(
    root: Path, relative: str, pull: bool
) -> tuple[float, float, float, int, float]:
    """Seconds from ``didOpen`` to the first findings, to those after the index is built,
    from process start to ``didOpen``; the ``$/progress`` notifications seen; and the
    server's CPU seconds (user + system) from its start to the first findings, which
    unlike the wall times hardly moves with the machine's load."""
    document_path = root / relative
    document = from_fs_path(str(document_path))
    assert document is not None
    client = LanguageClient("first-diagnostics-benchmark", "1")
    arrived: list[tuple[float, int, float]] = []
    built: list[float] = []
    progress: list[object] = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == document:
            arrived.append((time.perf_counter(), len(params.diagnostics), server_cpu()))

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        if params.message.startswith("index built"):
            built.append(time.perf_counter())

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def on_create(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(types.PROGRESS)
    def on_progress(params: types.ProgressParams) -> None:
        progress.append(params.value)

    async def pull_document() -> None:
        answer = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document))
        )
        if isinstance(answer, types.RelatedFullDocumentDiagnosticReport):
            arrived.append((time.perf_counter(), len(answer.items), server_cpu()))

    pulls: list[asyncio.Task[None]] = []

    @client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
    def on_refresh(params: None) -> None:
        pulls.append(asyncio.ensure_future(pull_document()))

    launched = time.perf_counter()
    await client.start_io(sys.executable, "-m", "ivycheck", "lsp", "--log-level", "info")
    assert client._server is not None
    pid = client._server.pid

    def server_cpu() -> float:
        return cpu_seconds(pid)

    root_uri = from_fs_path(str(root)) or ""
    await client.initialize_async(
        types.InitializeParams(
            capabilities=_capabilities(pull),
            root_uri=root_uri,
            workspace_folders=[types.WorkspaceFolder(uri=root_uri, name="w")],
        )
    )
    client.initialized(types.InitializedParams())
    opened = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=document, language_id="python", version=1, text=document_path.read_text()
            )
        )
    )
    if pull:
        pulls.append(asyncio.ensure_future(pull_document()))
    deadline = opened + 180

    def complete() -> bool:
        return bool(built) and any(t >= built[0] for t, _, _ in arrived)

    while not complete() and time.perf_counter() < deadline:
        await asyncio.sleep(0.002)
    await asyncio.gather(*pulls)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    first, cpu = next((t, cpu) for t, count, cpu in arrived if count)
    cross = next(t for t, _, _ in arrived if t >= built[0]) - opened
    return first - opened, cross, opened - launched, len(progress), cpu


def run(
    root: Path, relative: str, pull: bool, label: str, repeats: int, prepare: Callable[[], None]
) -> None:
    runs = []
    for _ in range(repeats):
        prepare()
        runs.append(asyncio.run(first_diagnostics(root, relative, pull)))
    first = statistics.median(r[0] for r in runs)
    cross = statistics.median(r[1] for r in runs)
    start = statistics.median(r[2] for r in runs)
    progress = max(r[3] for r in runs)
    cpu = statistics.median(r[4] for r in runs)
    print(
        f"{label}: first diagnostics {first:.2f} s, with cross-file findings {cross:.2f} s "
        f"after didOpen (server start to didOpen {start:.2f} s; {progress} $/progress; "
        f"server CPU to the first findings {cpu:.2f} s; median of {repeats})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=5000, help="5,000 = 500 files")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workspace", type=Path, help="copy this tree instead of generating")
    parser.add_argument("--document", help="the module opened, relative to the workspace")
    parser.add_argument("--marker", action="store_true", help="with --workspace: a pyproject.toml")
    parser.add_argument("--pull", action="store_true", help="pull diagnostics, as VS Code")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivycheck-lsp-first-") as directory:
        root = Path(directory) / "ws"
        if options.workspace is not None:
            shutil.copytree(options.workspace, root, ignore=shutil.ignore_patterns(".ivycheck*"))
            files = list(root.rglob("*.py"))
            relative = options.document or CORPUS_DOCUMENT
            if options.marker:
                (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
        else:
            files = generate(root, options.functions)
            relative = options.document or GENERATED_DOCUMENT
            (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
        print(
            f"workspace: {len(files)} files ({options.workspace or 'generated'}), "
            f"{'pull' if options.pull else 'push'}, opening {relative}"
        )

        def no_cache() -> None:
            for cache in list(root.rglob(".ivycheck_cache")):
                shutil.rmtree(cache, ignore_errors=True)

        def command_cache() -> None:
            no_cache()
            subprocess.run(
                [sys.executable, "-m", "ivycheck", "--quiet", "."],
                cwd=root,
                capture_output=True,
                check=False,
            )

        def caches() -> str:
            found = sorted(str(c.relative_to(root)) for c in root.rglob(".ivycheck_cache"))
            return ", ".join(found) or "none"

        run(root, relative, options.pull, "no cache", options.repeats, no_cache)
        print(f"  caches the server wrote: {caches()}")
        run(
            root,
            relative,
            options.pull,
            "cache the server wrote on its last start",
            options.repeats,
            lambda: None,
        )
        run(
            root,
            relative,
            options.pull,
            "cache written by `ivycheck .`",
            options.repeats,
            command_cache,
        )


if __name__ == "__main__":
    main()
