"""The real ``flake8`` with the ``IVY`` plugin against the real ``ivycheck``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO, run_ivycheck, write_tree

FLAKE8 = Path(sys.executable).with_name("flake8")

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""

NO_COPY = """\
@handle_view
def flip(x, /, *, axis=None, out=None):
    return current_backend(x).flip(x, axis=axis, out=out)
"""


def run_flake8(*args: str, cwd: Path) -> list[str]:
    done = subprocess.run(
        [str(FLAKE8), "--ivycheck-no-cache", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    # flake8 prints files found under "." as "./path"; ivycheck as "path".
    return [line.removeprefix("./") for line in done.stdout.splitlines()]


def _ivycheck(*args: str, cwd: Path) -> list[str]:
    """The command's lines without its ``[*]`` fix marker, which flake8 does not print."""
    lines = run_ivycheck("--no-cache", *args, cwd=cwd).stdout.splitlines()
    return [line.replace(" [*] ", " ", 1) for line in lines]


def test_examples_line_by_line_with_one_and_two_jobs() -> None:
    expected = _ivycheck("examples/", cwd=REPO)
    assert len(expected) > 20
    # flake8 reports a file that does not parse itself (E999) and runs no plugin on it.
    syntax = [line for line in expected if " IVY000 " in line]
    assert syntax, "examples/ keeps one file that does not parse"
    for jobs in ("1", "2"):
        found = run_flake8("--select", "IVY,E999", "-j", jobs, "examples/", cwd=REPO)
        ivy = sorted(line for line in found if " E999 " not in line)
        assert ivy == sorted(line for line in expected if " IVY000 " not in line)
        e999 = [line.split(":")[:2] for line in found if " E999 " in line]
        assert e999 == [line.split(":")[:2] for line in syntax]


def test_config_noqa_extend_ignore_per_file_ignores(project: Path) -> None:
    api = "ivy/functional/ivy"
    write_tree(
        project,
        {
            f"{api}/a.py": BAD_ORDER,
            f"{api}/b.py": NO_COPY,
            f"{api}/c.py": BAD_ORDER.replace(
                "@handle_out_argument", "@handle_out_argument  # noqa: IVY005"
            ),
            f"{api}/d.py": NO_COPY + BAD_ORDER.replace("tan", "sin"),
        },
    )
    (project / "pyproject.toml").write_text('[tool.ivycheck]\nignore = ["IVY006"]\n')
    everything = run_flake8("--select", "IVY", ".", cwd=project)
    assert everything == _ivycheck(".", cwd=project)
    assert sorted(line.split(":")[0] for line in everything) == [
        "ivy/functional/ivy/a.py",
        "ivy/functional/ivy/d.py",
    ]
    assert run_flake8("--select", "IVY", "--extend-ignore", "IVY005", ".", cwd=project) == []
    per_file = run_flake8(
        "--select", "IVY", "--per-file-ignores", f"{api}/a.py:IVY005", ".", cwd=project
    )
    assert [line.split(":")[0] for line in per_file] == ["ivy/functional/ivy/d.py"]


def test_cross_file_rule_sees_the_whole_run(project: Path) -> None:
    """IVY017: the API delegates to a function no backend defines; needs the index."""
    files = {
        "ivy/functional/ivy/general.py": (
            "@handle_out_argument\n@to_native_arrays_and_back\n"
            "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n\n\n"
            "@handle_out_argument\n@to_native_arrays_and_back\n"
            "def cosh(x, /, *, out=None):\n    return current_backend(x).cosh(x, out=out)\n"
        ),
        "ivy/functional/backends/numpy/general.py": (
            "import numpy as np\n\n\ndef tan(x, /, *, out=None):\n"
            "    return np.tan(x, out=out)\n\n\ntan.support_native_out = True\n"
        ),
    }
    write_tree(project, files)
    expected = _ivycheck(".", cwd=project)
    assert any(" IVY017 " in line for line in expected), expected
    assert run_flake8("--select", "IVY", ".", cwd=project) == expected


def test_no_work_when_ivy_codes_are_not_selected(monkeypatch, project: Path) -> None:  # type: ignore[no-untyped-def]
    """flake8 runs every installed plugin whatever ``--select`` says; ours must then do
    nothing (no project index, no check), or ``flake8 --select F`` pays for ivycheck."""
    from flake8.main import cli

    from ivycheck.checker.frontends.flake8_plugin import IvycheckFlake8

    write_tree(project, {"ivy/functional/ivy/elementwise.py": BAD_ORDER})
    monkeypatch.chdir(project)
    for args, builds in (
        (["--select", "F"], False),
        (["--select", "E,F", "--extend-select", "IVY00"], True),
        (["--select", "IVY"], True),
        ([], True),
    ):
        monkeypatch.setattr(IvycheckFlake8, "_projects", {})
        assert cli.main([*args, "--jobs", "1", "--exit-zero", "-q", "."]) == 0
        assert bool(IvycheckFlake8._projects) is builds, args
