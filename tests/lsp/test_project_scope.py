"""Which project a document is checked in: the command's, and the configuration's.

A document is checked against the index of its project root as ``ivycheck <file>`` finds
it (configuration folder, else the nearest pyproject.toml/setup.py/setup.cfg/.git, else the
top-level package), whatever folder the editor opened. A configuration change re-indexes
the project under the new settings: which files are the functional API or a backend comes
from the configuration, and results made under the old one must not survive it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.helpers import run_ivycheck, write_tree
from tests.lsp.harness import NUMPY_TAN, SPECIAL_API, codes, open_document, published, server, uri

pytestmark = pytest.mark.asyncio

OWN_LAYOUT = """\
[tool.ivycheck]
functional-api = ["mylib/api/**"]
backends = { numpy = ["mylib/backends/numpy/**"] }
"""


def _command_codes(project: Path, file: Path) -> list[str]:
    done = run_ivycheck("--format", "json", "--exit-zero", "--no-cache", "-q", file, cwd=project)
    assert done.returncode == 0, done.stderr
    return sorted(d["code"] for d in json.loads(done.stdout))


def _project_with_a_backend(tmp_path: Path) -> Path:
    """An API file and the NumPy backend it delegates to, in a project of their own."""
    return write_tree(
        tmp_path / "proj",
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "ivy/functional/ivy/special.py": SPECIAL_API,
            "ivy/functional/backends/numpy/special.py": NUMPY_TAN,
        },
    )


async def test_a_folder_inside_a_project_sees_the_projects_backends(tmp_path: Path) -> None:
    """The editor opened ``ivy/functional/ivy`` only; the backends are outside it."""
    project = _project_with_a_backend(tmp_path)
    folder = project / "ivy/functional/ivy"
    expected = _command_codes(project, folder / "special.py")
    assert expected == ["IVY005", "IVY017"]
    async with server(folder) as client:
        document = open_document(client, folder / "special.py")
        found = await published(client, document, lambda d: "IVY017" in codes(d))
        assert sorted(codes(found)) == expected
        assert "numpy" in next(d.message for d in found if d.code == "IVY017")


async def test_workspace_diagnostics_cover_the_folder_checked_in_its_project(
    tmp_path: Path,
) -> None:
    """The closed files reported are the opened folder's; their index is the project's."""
    project = _project_with_a_backend(tmp_path)
    folder = project / "ivy/functional/ivy"
    api = uri(folder / "special.py")
    async with server(folder, pull=True) as client:
        for _ in range(300):
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[])
            )
            by_uri = {item.uri: item for item in report.items}
            item = by_uri.get(api)
            if isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) and any(
                d.code == "IVY017" for d in item.items
            ):
                break
            await asyncio.sleep(0.05)
        assert list(by_uri) == [api], "the backend is indexed, not reported"
        assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
        assert sorted(codes(item.items)) == _command_codes(project, folder / "special.py")


def _touch(client: LanguageClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(path), type=types.FileChangeType.Changed)]
        )
    )


@pytest.fixture
def own_layout(tmp_path: Path) -> Path:
    """A project whose API and backend folders only a configuration names."""
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            "mylib/api/special.py": SPECIAL_API,
            "mylib/backends/numpy/special.py": NUMPY_TAN,
        },
    )


async def test_a_configuration_change_reindexes_open_documents(own_layout: Path) -> None:
    api = own_layout / "mylib/api/special.py"
    async with server(own_layout) as client:
        document = open_document(client, api)
        await published(client, document, lambda d: "IVY017" not in codes(d))
        await asyncio.sleep(0.5)  # the scan is complete: still no backend known
        assert "IVY017" not in codes(client.diagnostics[document])
        (own_layout / "pyproject.toml").write_text(OWN_LAYOUT)
        _touch(client, own_layout / "pyproject.toml")
        found = await published(client, document, lambda d: "IVY017" in codes(d))
        assert sorted(codes(found)) == _command_codes(own_layout, api)


async def test_a_configuration_change_reindexes_closed_files(own_layout: Path) -> None:
    api = uri(own_layout / "mylib/api/special.py")
    async with server(own_layout, pull=True) as client:
        for _ in range(100):
            report = await client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[])
            )
            if any(item.uri == api for item in report.items):
                break
            await asyncio.sleep(0.05)
        refreshes = client.diagnostic_refresh_count
        (own_layout / "pyproject.toml").write_text(OWN_LAYOUT)
        _touch(client, own_layout / "pyproject.toml")
        for _ in range(300):
            if client.diagnostic_refresh_count > refreshes:
                break
            await asyncio.sleep(0.02)
        assert client.diagnostic_refresh_count > refreshes, "the client is asked to pull"
        report = await client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(previous_result_ids=[])
        )
        [item] = [item for item in report.items if item.uri == api]
        assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
        assert sorted(codes(item.items)) == _command_codes(
            own_layout, own_layout / "mylib/api/special.py"
        )
        assert "IVY017" in codes(item.items)


async def test_a_folder_without_a_marker_is_indexed_once_at_its_files_root(tmp_path: Path) -> None:
    """A checkout of a package folder (``ws/ivy/__init__.py``, no ``pyproject.toml``): every
    file's root is the package, as the command has it for that file, whether it is open
    or not. The folder is no second root: one index, one cache (``ws/ivy``'s), none in
    ``ws``; and the open document gets the cross-file findings of the whole package."""
    workspace = write_tree(
        tmp_path / "ws",
        {
            "ivy/__init__.py": "",
            "ivy/functional/__init__.py": "",
            "ivy/functional/ivy/__init__.py": "",
            "ivy/functional/ivy/special.py": SPECIAL_API,
            "ivy/functional/backends/__init__.py": "",
            "ivy/functional/backends/numpy/__init__.py": "",
            "ivy/functional/backends/numpy/special.py": NUMPY_TAN,
        },
    )
    api = workspace / "ivy/functional/ivy/special.py"
    async with server(workspace, env={"IVYCHECK_LOG_LEVEL": "info"}) as client:
        document = open_document(client, api)
        found = await published(client, document, lambda d: "IVY017" in codes(d))
        assert sorted(codes(found)) == _command_codes(workspace, api)
        for _ in range(300):
            if any(m.message.startswith("index built") for m in client.log_messages):
                break
            await asyncio.sleep(0.02)
        built = [m.message for m in client.log_messages if m.message.startswith("index built")]
        assert len(built) == 1 and built[0].startswith("index built: 7 files"), built
    caches = sorted(p.relative_to(workspace) for p in workspace.rglob(".ivycheck_cache"))
    assert caches == [Path("ivy/.ivycheck_cache")]
