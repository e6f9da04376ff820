"""Two projects checked in one run: each file's findings come from its own project's index.

The two synthetic projects share their relative layout (``pkg/functional/ivy/f.py`` and
``pkg/functional/backends/numpy/f.py``) but define different functions, so an index that
mixed them (summaries keyed by the path relative to each root collide) would answer one
project's questions with the other's files: a missing name, an internal error (IVY999), or
a finding that belongs to neither."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ivycheck.checker.run.runner import RunOptions, run
from tests.helpers import run_ivycheck, write_tree

FIRST = {
    "pyproject.toml": '[project]\nname = "first"\n',
    "pkg/functional/ivy/f.py": """\
        @handle_out_argument
        def softsign(x, /, *, out=None):
            return current_backend(x).softsign(x, out=out)


        @handle_out_argument
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
    "pkg/functional/backends/numpy/f.py": """\
        import numpy as np


        def softsign(x, /, out=None):
            return np.softsign(x)


        softsign.support_native_out = True
        """,
}

SECOND = {
    "pyproject.toml": '[project]\nname = "second"\n',
    "pkg/functional/ivy/f.py": """\
        @handle_out_argument
        def relu(x, /, *, out=None):
            return current_backend(x).relu(x, out=out)
        """,
    "pkg/functional/backends/numpy/f.py": """\
        import numpy as np


        def relu(x, /, *, out=None):
            return np.maximum(x, 0, out=out)


        def cosh(x, /):
            return np.cosh(x)
        """,
}

Finding = tuple[str, int, str]


@pytest.fixture
def projects(tmp_path: Path) -> tuple[Path, Path]:
    return write_tree(tmp_path / "first", FIRST), write_tree(tmp_path / "second", SECOND)


def _findings(*paths: Path, jobs: int = 1) -> set[Finding]:
    result = run(RunOptions(paths=paths, use_cache=False, jobs=jobs))
    assert not result.problems
    return {(str(Path(d.path).resolve()), d.line, d.code) for d in result.diagnostics}


@pytest.mark.parametrize("jobs", [1, 2])
def test_one_run_over_two_projects_gives_what_each_gives_alone(
    projects: tuple[Path, Path], jobs: int
) -> None:
    first, second = projects
    alone_first, alone_second = _findings(first), _findings(second)
    # Each project has findings of its own, cross-file ones (IVY017) among them.
    assert {code for _, _, code in alone_first} >= {"IVY017", "IVY002"}
    assert {code for _, _, code in alone_second} == {"IVY001"}
    together = _findings(first, second, jobs=jobs)
    assert not [f for f in together if f[2] == "IVY999"]
    assert together == alone_first | alone_second
    assert _findings(second, first, jobs=jobs) == together


def test_the_command_over_two_projects(projects: tuple[Path, Path]) -> None:
    first, second = projects
    done = run_ivycheck("--no-cache", "--format", "json", first.name, second.name, cwd=first.parent)
    assert done.returncode == 1, done.stderr
    found = sorted((d["filename"], d["code"]) for d in json.loads(done.stdout))
    assert found == [
        ("first/pkg/functional/backends/numpy/f.py", "IVY002"),
        ("first/pkg/functional/backends/numpy/f.py", "IVY008"),
        ("first/pkg/functional/ivy/f.py", "IVY017"),
        ("second/pkg/functional/backends/numpy/f.py", "IVY001"),
    ]


def test_flake8_over_two_projects(projects: tuple[Path, Path]) -> None:
    """The flake8 plugin keeps one index per root as the command does (one job: both
    projects' files go through one process and its indexes)."""
    first, _ = projects
    flake8 = Path(sys.executable).with_name("flake8")
    done = subprocess.run(
        [str(flake8), "--ivycheck-no-cache", "--select", "IVY", "-j", "1", "first", "second"],
        cwd=first.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    found = sorted((line.split(":")[0], line.split(" ")[1]) for line in done.stdout.splitlines())
    assert found == [
        ("first/pkg/functional/backends/numpy/f.py", "IVY002"),
        ("first/pkg/functional/backends/numpy/f.py", "IVY008"),
        ("first/pkg/functional/ivy/f.py", "IVY017"),
        ("second/pkg/functional/backends/numpy/f.py", "IVY001"),
    ]
