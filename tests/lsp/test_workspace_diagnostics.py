"""Findings of files that are not open: pulled (``workspace/diagnostic``) by clients that
can, published to those that cannot, from the index the server holds."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types

from tests.helpers import write_tree
from tests.lsp.harness import codes, published, server, uri

pytestmark = pytest.mark.asyncio

API = """\
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
BACKEND = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


tan.support_native_out = True
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "ivy/functional/ivy/special.py": API,
            "ivy/functional/backends/numpy/special.py": BACKEND,
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
