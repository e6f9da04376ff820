"""The VS Code extension's server command, for each ``ivycheck.importStrategy``.

The extension runs ``<interpreter> bundled/tool/launch.py lsp`` with
``IVYCHECK_IMPORT_STRATEGY`` set (``editors/vscode/src/extension.ts``). Here the bundle is
built as ``make vsix`` builds it (``editors/vscode/scripts/bundle.py``: real pip, a real
wheel of this repository), into an extension-shaped directory, and the command starts a real
server that answers ``initialize``. The bundled copy's ``__version__`` is marked so that the
server's ``serverInfo`` says which copy answered. A bare virtual environment (no ivycheck,
no dependencies) stands for a user's interpreter; this test process's own interpreter, which
has ivycheck installed, for a developer's.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

import ivycheck
from ivycheck.lsp.settings import SCOPES, Settings
from tests.helpers import REPO

VSCODE = REPO / "editors" / "vscode"
BUNDLED_VERSION = f"{ivycheck.__version__}+bundled"

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An interpreter of the same version with nothing installed."""
    root = tmp_path_factory.mktemp("bare") / "venv"
    venv.EnvBuilder(with_pip=False).create(root)
    python = root / "bin" / "python"
    assert subprocess.run([python, "-c", "import ivycheck"], capture_output=True).returncode == 1
    return str(python)


@pytest.fixture(scope="module")
def extension(tmp_path_factory: pytest.TempPathFactory, bare_python: str) -> Path:
    """``bundled/`` as the .vsix holds it, libraries built for the bare interpreter."""
    root = tmp_path_factory.mktemp("extension")
    shutil.copytree(VSCODE / "bundled" / "tool", root / "bundled" / "tool")
    done = subprocess.run(
        [sys.executable, VSCODE / "scripts" / "bundle.py", root / "bundled" / "libs", bare_python],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    (libs,) = (root / "bundled" / "libs").iterdir()
    init = libs / "ivycheck" / "__init__.py"
    source = init.read_text(encoding="utf-8")
    marked = source.replace(f'"{ivycheck.__version__}"', f'"{BUNDLED_VERSION}"', 1)
    assert marked != source
    init.write_text(marked, encoding="utf-8")
    assert not (libs / "numpy").exists()
    return root


def _command(extension: Path, python: str) -> list[str]:
    return [python, str(extension / "bundled" / "tool" / "launch.py"), "lsp"]


def _environment(strategy: str) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return {**environment, "IVYCHECK_IMPORT_STRATEGY": strategy}


async def _initialize(command: list[str], strategy: str, root: Path) -> tuple[str, list[str]]:
    """Version in ``serverInfo`` and the codes published for one bad file."""
    config = ClientServerConfig(server_command=command, server_env=_environment(strategy))
    client = await config.start()
    assert isinstance(client, LanguageClient)
    bad = root / "ivy/functional/ivy/a.py"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text(BAD_ORDER, encoding="utf-8")
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    root_uri = from_fs_path(str(root))
    document = from_fs_path(str(bad))
    assert root_uri is not None and document is not None
    try:
        capabilities = client_capabilities("neovim")
        assert capabilities.text_document is not None
        capabilities.text_document.diagnostic = None  # the server pushes to such a client
        result = await client.initialize_session(
            types.InitializeParams(capabilities=capabilities, root_uri=root_uri)
        )
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=document, language_id="python", version=1, text=BAD_ORDER
                )
            )
        )
        # IVY005 reads the project's wrappers from the index: it comes with the push that
        # follows the index (the first may hold only the file's own findings: none here).
        deadline = asyncio.get_running_loop().time() + 60
        while not client.diagnostics.get(document):
            assert asyncio.get_running_loop().time() < deadline, "no diagnostics came"
            await asyncio.sleep(0.02)
        codes = [str(d.code) for d in client.diagnostics.get(document, [])]
    finally:
        await client.shutdown_session()
        await client.stop()
    assert result.server_info is not None and result.server_info.name == "ivycheck"
    assert result.server_info.version is not None
    return result.server_info.version, codes


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("interpreter", "strategy", "version"),
    [
        ("bare", "useBundled", BUNDLED_VERSION),
        ("bare", "fromEnvironment", BUNDLED_VERSION),  # nothing installed: the bundled fallback
        ("installed", "useBundled", BUNDLED_VERSION),
        ("installed", "fromEnvironment", ivycheck.__version__),
    ],
)
async def test_each_import_strategy_starts_a_server_that_answers(
    extension: Path, bare_python: str, tmp_path: Path, interpreter: str, strategy: str, version: str
) -> None:
    python = bare_python if interpreter == "bare" else sys.executable
    answered, codes = await _initialize(_command(extension, python), strategy, tmp_path)
    assert answered == version
    assert codes == ["IVY005"]


def test_without_a_bundle_for_the_interpreter_it_says_what_to_do(
    extension: Path, bare_python: str, tmp_path: Path
) -> None:
    other = tmp_path / "extension"
    shutil.copytree(extension / "bundled" / "tool", other / "bundled" / "tool")
    (other / "bundled" / "libs" / "cpython-399-elsewhere").mkdir(parents=True)
    done = subprocess.run(
        _command(other, bare_python),
        capture_output=True,
        text=True,
        env=_environment("useBundled"),
        timeout=60,
    )
    assert done.returncode == 3
    assert "Traceback" not in done.stderr
    assert "has no ivycheck installed" in done.stderr
    assert "cpython-399-elsewhere" in done.stderr
    assert "ivycheck-lint" in done.stderr
    checked = subprocess.run(
        [*_command(extension, bare_python)[:2], "--check"],
        env=_environment("useBundled"),
        capture_output=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_manifest_starts_on_any_python_file_and_offers_the_servers_scopes() -> None:
    """VS Code activates the extension (and starts the server) when the window opens a
    folder holding any Python file, not only one with a project marker (issue 39: without
    one, the server waited for a Python editor to open, doubling the first open); the
    ``ivycheck.diagnosticsScope`` setting offers exactly the scopes the server knows."""
    manifest = json.loads((REPO / "editors/vscode/package.json").read_text())
    events = manifest["activationEvents"]
    assert "workspaceContains:**/*.py" in events and "onLanguage:python" in events, events
    scope = manifest["contributes"]["configuration"]["properties"]["ivycheck.diagnosticsScope"]
    assert sorted(scope["enum"]) == sorted(SCOPES)
    assert scope["default"] == Settings().diagnostics_scope
    assert Settings.from_client({"diagnosticsScope": "openFiles"}).workspace_wide is False
    assert Settings.from_client({"diagnosticsScope": "bogus"}).diagnostics_scope == "workspace"
