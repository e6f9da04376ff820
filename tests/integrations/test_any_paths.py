"""The same answer for any paths, through the real front ends: ``flake8`` on one file and
the pre-commit hook over one staged file report, for that file, what ``ivycheck .`` does.

The project is tests/checker/test_paths.py's: its findings need the index of the whole
project (IVY017 needs the backends, IVY002's exemption the API file).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.checker.test_paths import API, JAX, PROJECT
from tests.helpers import REPO, run_ivycheck, write_tree

FLAKE8 = Path(sys.executable).with_name("flake8")
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
FINDING = re.compile(r"^(?:\./)?(?P<path>\S+?):(?P<row>\d+):(?P<col>\d+): (?P<rest>IVY\d+ .*)$")


def _lines(output: str, path: str) -> list[str]:
    """``row:col: CODE message`` of ``path``'s findings, without fix markers."""
    found = []
    for line in output.splitlines():
        match = FINDING.match(line.strip())
        if match and match["path"] == path:
            rest = match["rest"].replace(" [*] ", " ", 1)
            found.append(f"{match['row']}:{match['col']}: {rest}")
    return sorted(found)


def _project(root: Path) -> Path:
    write_tree(root, PROJECT)
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    return root


def _whole(root: Path, path: str) -> list[str]:
    found = _lines(run_ivycheck("--no-cache", ".", cwd=root).stdout, path)
    assert found, "the project has findings in every file compared"
    return found


def test_flake8_on_one_file_reports_what_the_whole_tree_run_does(tmp_path: Path) -> None:
    root = _project(tmp_path)
    for path in (API, JAX):
        done = subprocess.run(
            [str(FLAKE8), "--ivycheck-no-cache", "--select", "IVY", path],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode in (0, 1), done.stderr
        assert _lines(done.stdout, path) == _whole(root, path), path


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_pre_commit_over_one_staged_file_reports_what_the_whole_tree_run_does(
    tmp_path: Path,
) -> None:
    """The repository's hook at ``HEAD`` (pre-commit pip-installs it), run by ``pre-commit
    run`` over the files staged: only the API file changed, the backends are committed."""
    root = _project(tmp_path / "target")
    _git("init", "-q", cwd=root)
    _git("add", ".", cwd=root)
    _git("commit", "-q", "-m", "start", cwd=root)
    ref = _git("rev-parse", "HEAD", cwd=REPO)
    (root / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {REPO}\n  rev: {ref}\n  hooks:\n  - id: ivycheck\n", encoding="utf-8"
    )
    api = root / API
    api.write_text(api.read_text(encoding="utf-8") + "\n# touched\n", encoding="utf-8")
    _git("add", API, ".pre-commit-config.yaml", cwd=root)
    environment = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "NO_COLOR": "1"}
    environment.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [str(PRE_COMMIT), "run", "--color", "never"],
        cwd=root,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert _lines(done.stdout, API) == _whole(root, API)
    assert not _lines(done.stdout, JAX)  # not staged: not reported
