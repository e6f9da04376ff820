"""Time to the first diagnostics of a document opened as the language server starts.

    .venv/bin/python benchmarks/lsp_first_diagnostics.py                 # 500 files
    .venv/bin/python benchmarks/lsp_first_diagnostics.py --functions 20000

Writes an Ivy-style workspace (``benchmarks/corpus.py``: 5,000 functions are 500 files),
then, through a real LSP client over stdio, starts ``ivycheck lsp`` and opens the first
functional-API module right after ``initialized``, as an editor restoring its tabs does.
Reports, from ``didOpen``: the first ``publishDiagnostics`` for it (its IVY005, a
single-file finding), and the first one that also holds its IVY017 (a cross-file finding:
it needs the workspace index). With no on-disk cache; with the cache the server saved on
its previous start; with the one ``ivycheck .`` wrote (``.ivycheck_cache``).
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


async def first_diagnostics(root: Path) -> tuple[float, float, float]:
    """Seconds from ``didOpen`` to the first diagnostics, to the cross-file ones, and
    from process start to ``didOpen``."""
    document_path = root / "ivy/functional/ivy/module_0000.py"
    document = from_fs_path(str(document_path))
    assert document is not None
    client = LanguageClient("first-diagnostics-benchmark", "1")
    arrived: list[tuple[float, set[str]]] = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == document:
            arrived.append((time.perf_counter(), {str(d.code) for d in params.diagnostics}))

    launched = time.perf_counter()
    await client.start_io(sys.executable, "-m", "ivycheck", "lsp")
    root_uri = from_fs_path(str(root)) or ""
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
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
    deadline = opened + 120
    while not any("IVY017" in codes for _, codes in arrived) and time.perf_counter() < deadline:
        await asyncio.sleep(0.002)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    first = next(t for t, codes in arrived if codes) - opened
    cross = next(t for t, codes in arrived if "IVY017" in codes) - opened
    return first, cross, opened - launched


def run(root: Path, label: str, repeats: int, prepare: Callable[[], None]) -> None:
    runs = []
    for _ in range(repeats):
        prepare()
        runs.append(asyncio.run(first_diagnostics(root)))
    first = statistics.median(r[0] for r in runs)
    cross = statistics.median(r[1] for r in runs)
    start = statistics.median(r[2] for r in runs)
    print(
        f"{label}: first diagnostics {first:.2f} s, with cross-file findings {cross:.2f} s "
        f"after didOpen (server start to didOpen {start:.2f} s; median of {repeats})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=5000, help="5,000 = 500 files")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivycheck-lsp-first-") as directory:
        root = Path(directory)
        files = generate(root, options.functions)
        (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
        print(f"workspace: {len(files)} files, {options.functions} functions")
        cache = root / ".ivycheck_cache"

        def no_cache() -> None:
            shutil.rmtree(cache, ignore_errors=True)

        def command_cache() -> None:
            no_cache()
            subprocess.run(
                [sys.executable, "-m", "ivycheck", "--quiet", "."],
                cwd=root,
                capture_output=True,
                check=False,
            )

        run(root, "no cache", options.repeats, no_cache)
        run(root, "cache the server wrote on its last start", options.repeats, lambda: None)
        run(root, "cache written by `ivycheck .`", options.repeats, command_cache)


if __name__ == "__main__":
    main()
