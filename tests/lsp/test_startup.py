"""Start-up: the opened document is checked first, the workspace indexed behind it.

A document opened as the server starts gets its single-file findings at once; its
cross-file findings follow when every workspace file has been summarized (the index is
never consulted half-built: a backend not yet read would look like a missing one), with
work-done progress meanwhile. A pull is never silently partial: a client that can be
asked to pull again gets the single-file findings and a refresh, one that cannot gets
its answer once the index is built. Summaries come from the on-disk cache the command
writes when a file's ``stat`` matches.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from ivycheck.lsp.server import IvycheckServer
from tests.helpers import write_tree
from tests.lsp.harness import SPECIAL_API, codes, open_document, published, server

pytestmark = pytest.mark.asyncio

API_PATH = "ivy/functional/ivy/special.py"
BACKEND = "ivy/functional/backends/numpy/special.py"
BACKEND_TEXT = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


tan.support_native_out = True


def erf(x, /, *, out=None):
    return np.tanh(x)
"""
WITHOUT_ERF = BACKEND_TEXT.replace("def erf(", "def erg(")
"""The same size: ``erf`` is missing from the NumPy backend (IVY017 in the API file)."""
FILLER = "".join(
    f"\n\ndef f_{n}(x, /, *, out=None):\n    y = np.add(x, {n})\n    return np.tan(y, out=out)\n"
    for n in range(60)
)


KEYWORD_OUT = """

@handle_out_argument
def sinh(x, out=None):
    return current_backend(x).sinh(x, out=out)
"""
"""An API function whose ``out`` is not keyword-only: IVY008, a finding of the file alone
(and an IVY017: no backend defines ``sinh``)."""
CROSS_FILE = ["IVY005", "IVY008", "IVY017", "IVY017"]


def _workspace(
    tmp_path: Path, fillers: int, backend: str = BACKEND_TEXT, api: str = SPECIAL_API
) -> Path:
    files = {"pyproject.toml": "[tool.ivycheck]\n", API_PATH: api, BACKEND: backend}
    for number in range(fillers):
        files[f"ivy/functional/backends/numpy/filler_{number:03d}.py"] = (
            "import numpy as np\n" + FILLER
        )
    return write_tree(tmp_path, files)


async def test_single_file_findings_come_before_the_index_is_built(tmp_path: Path) -> None:
    workspace = _workspace(
        tmp_path, fillers=150, backend=WITHOUT_ERF, api=SPECIAL_API + KEYWORD_OUT
    )
    async with server(workspace) as client:
        document = open_document(client, workspace / API_PATH)
        seen: list[list[str]] = []
        deadline = asyncio.get_running_loop().time() + 60
        while not seen or "IVY017" not in seen[-1]:
            assert asyncio.get_running_loop().time() < deadline, f"published: {seen}"
            found = client.diagnostics.get(document)
            if found is not None and (not seen or codes(found) != seen[-1]):
                seen.append(codes(found))
            await asyncio.sleep(0.005)
        assert seen[0] == ["IVY008"], f"first published: {seen[0]}"
        assert sorted(seen[-1]) == CROSS_FILE
        # Meanwhile the client was shown the index being built.
        [reports] = client.progress_reports.values()
        assert isinstance(reports[0], types.WorkDoneProgressBegin)
        assert reports[0].title == "ivycheck"
        assert reports[0].message is not None and reports[0].message.startswith("indexing ")
        assert reports[0].message.endswith(" of 152 files")
        assert isinstance(reports[-1], types.WorkDoneProgressEnd)


async def _pull(client: object, document: str) -> list[str]:
    answer = await client.text_document_diagnostic_async(  # type: ignore[attr-defined]
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    assert isinstance(answer, types.RelatedFullDocumentDiagnosticReport)
    return sorted(codes(answer.items))


async def test_a_pull_without_refresh_support_waits_for_the_cross_file_findings(
    tmp_path: Path,
) -> None:
    workspace = _workspace(
        tmp_path, fillers=150, backend=WITHOUT_ERF, api=SPECIAL_API + KEYWORD_OUT
    )
    async with server(workspace, pull=True, refresh=False) as client:
        document = open_document(client, workspace / API_PATH)
        assert await _pull(client, document) == CROSS_FILE


async def test_a_pull_with_refresh_support_gets_the_files_own_findings_then_a_refresh(
    tmp_path: Path,
) -> None:
    workspace = _workspace(
        tmp_path, fillers=150, backend=WITHOUT_ERF, api=SPECIAL_API + KEYWORD_OUT
    )
    async with server(workspace, pull=True) as client:
        document = open_document(client, workspace / API_PATH)
        refreshes = client.diagnostic_refresh_count
        answers = [await _pull(client, document)]
        assert answers[0] == ["IVY008"]
        deadline = asyncio.get_running_loop().time() + 60
        while answers[-1] != CROSS_FILE:  # pulled again on each refresh, as VS Code does
            while client.diagnostic_refresh_count == refreshes:
                assert asyncio.get_running_loop().time() < deadline, f"no refresh: {answers}"
                await asyncio.sleep(0.02)
            refreshes = client.diagnostic_refresh_count
            answers.append(await _pull(client, document))


async def test_summaries_cached_by_the_command_are_reused(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, fillers=0)
    backend = workspace / BACKEND
    done = subprocess.run(
        [sys.executable, "-m", "ivycheck", "--quiet", "."],
        cwd=workspace,
        capture_output=True,
        check=False,
    )
    assert (workspace / ".ivycheck_cache").is_dir(), done.stderr
    # Same size and mtime, erf renamed: only a server that takes the cached summary (which
    # has erf) finds nothing missing; one that reads the file reports IVY017.
    stat = backend.stat()
    backend.write_text(WITHOUT_ERF)
    os.utime(backend, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    async with server(workspace) as client:
        document = open_document(client, workspace / API_PATH)
        await published(client, document, lambda d: codes(d) == ["IVY005"])
        await asyncio.sleep(1.0)  # the index is complete long before; nothing more comes
        assert codes(client.diagnostics[document]) == ["IVY005"]


async def test_background_steps_wait_for_a_document_check_and_its_answer() -> None:
    """The scan and the closed files' rounds take their next step only once no document's
    check is under way and its answer has gone out (a step holds the GIL for whole C
    calls: taken meanwhile, it delays the squiggle)."""
    ls = IvycheckServer()
    ls.answering = 1
    waiting = asyncio.ensure_future(ls.documents_first())
    await asyncio.sleep(0.05)
    assert not waiting.done()
    ls._answered()
    await asyncio.wait_for(waiting, 1.0)
