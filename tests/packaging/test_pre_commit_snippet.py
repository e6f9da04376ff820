"""The README's pre-commit snippets, as written, with the real pre-commit and pip.

A user pastes the snippet, replaces ``/path/to/ivycheck`` by their clone (or its git URL),
runs ``pre-commit autoupdate && pre-commit install`` and commits. pre-commit clones this
repository at the pinned commit and pip-installs it into the hook environment; the
dependencies come from the machine's pip configuration (its index, find-links and extra
indexes), so the test works wherever ``pip install .`` does. The hook environment must hold
the checker only: NumPy is the runtime's, not the checker's.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO

PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
PLACEHOLDER = "/path/to/ivycheck"

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""
FINDING = "ivy/functional/ivy/a.py:2:1: IVY005 "


def _snippets() -> list[str]:
    """The YAML blocks of README.md's pre-commit section, in order."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### pre-commit", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```yaml\n(.*?)```", section, flags=re.DOTALL)


def _run(*command: str | Path, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    environment.pop("VIRTUAL_ENV", None)
    environment.pop("PRE_COMMIT", None)
    environment["PATH"] = os.pathsep.join([str(PRE_COMMIT.parent), environment["PATH"]])
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    argv = [*git, *command[1:]] if command[0] == "git" else list(command)
    return subprocess.run(
        [str(c) for c in argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )


def _project(root: Path, config: str) -> Path:
    bad = root / "ivy/functional/ivy/a.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(BAD_ORDER, encoding="utf-8")
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    (root / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    return root


def test_readme_snippet_pins_installs_and_blocks_a_commit_with_a_finding(tmp_path: Path) -> None:
    snippet = _snippets()[0]
    assert PLACEHOLDER in snippet
    home = tmp_path / "home"
    project = _project(tmp_path / "project", snippet.replace(PLACEHOLDER, str(REPO)))

    updated = _run(PRE_COMMIT, "autoupdate", cwd=project, home=home)
    assert updated.returncode == 0, updated.stdout + updated.stderr
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    config = (project / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert re.search(rf"rev: {head}\b", config), config

    installed = _run(PRE_COMMIT, "install", cwd=project, home=home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    _run("git", "add", ".", cwd=project, home=home)
    committed = _run("git", "commit", "-q", "-m", "bad", cwd=project, home=home)
    assert committed.returncode == 1, committed.stdout + committed.stderr
    assert FINDING in committed.stdout + committed.stderr
    assert "Found 1 problem" in committed.stdout + committed.stderr

    (environment,) = home.glob("repo*/py_env-*")
    pip_list = subprocess.run(
        [environment / "bin/python", "-m", "pip", "list", "--format", "freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.lower()
    names = {line.split("==")[0] for line in pip_list.splitlines()}
    assert "ivycheck-lint" in names
    assert "ivycheck" not in names
    assert "numpy" not in names, names


def test_local_snippet_runs_the_ivycheck_of_the_environment(tmp_path: Path) -> None:
    snippet = _snippets()[1]
    assert "repo: local" in snippet
    home = tmp_path / "home"
    project = _project(tmp_path / "project", snippet)
    _run("git", "add", ".", cwd=project, home=home)
    ran = _run(PRE_COMMIT, "run", "--all-files", cwd=project, home=home)
    assert ran.returncode == 1, ran.stdout + ran.stderr
    assert FINDING in ran.stdout
    assert not list(home.glob("repo*/py_env-*"))  # nothing installed: the environment's own
