"""The VS Code launcher's message when an interpreter cannot run the server (issue 27):
one piece of advice, no placeholder, and no advice to set ``fromEnvironment`` when it is
already set. Run against a bare interpreter (nothing installed) and a bundle for another
Python, as ``launch.py --check`` runs before the extension starts the server."""

from __future__ import annotations

import os
import shutil
import subprocess
import venv
from pathlib import Path

import pytest

VSCODE = Path(__file__).resolve().parents[2] / "editors" / "vscode"


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("bare") / "venv"
    venv.EnvBuilder(with_pip=False).create(root)
    return str(root / "bin" / "python")


@pytest.mark.parametrize("strategy", ["useBundled", "fromEnvironment"])
def test_one_piece_of_advice_and_no_placeholder(
    bare_python: str, tmp_path: Path, strategy: str
) -> None:
    shutil.copytree(VSCODE / "bundled" / "tool", tmp_path / "bundled" / "tool")
    (tmp_path / "bundled" / "libs" / "cpython-399-elsewhere").mkdir(parents=True)
    done = subprocess.run(
        [bare_python, str(tmp_path / "bundled" / "tool" / "launch.py"), "--check"],
        capture_output=True,
        text=True,
        env={**os.environ, "IVYCHECK_IMPORT_STRATEGY": strategy},
        timeout=60,
    )
    message = done.stderr
    assert done.returncode == 3, message
    assert "Traceback" not in message
    assert "<" not in message and ">" not in message, message  # no <repository URL>
    assert "cpython-399-elsewhere" in message and bare_python in message
    assert message.count("pip install") == 1, message
    assert (
        message.count("Set ivycheck.interpreter") + message.count("set ivycheck.interpreter") == 1
    )
    if strategy == "fromEnvironment":
        assert "importStrategy" not in message, message  # it is already fromEnvironment
    else:
        assert "ivycheck.importStrategy to fromEnvironment" in message
