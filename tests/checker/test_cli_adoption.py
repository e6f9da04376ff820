"""The real ``ivycheck`` process, adopting it on a tree: unused ``# noqa`` (IVY100),
``--add-noqa``, baselines, selector validation and the command-line conventions of
issue 17."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_ivycheck, write_tree

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

API = "ivy/functional/ivy"


def _api(project: Path, files: dict[str, str]) -> Path:
    return write_tree(project, {f"{API}/{k}": v for k, v in files.items()})


def test_unused_noqa_is_opt_in_reported_and_fixed(project: Path) -> None:
    stale = (
        BAD_ORDER.replace(
            "@handle_out_argument\n", "@handle_out_argument  # noqa: IVY005, IVY006\n"
        )
        + "y = 1  # noqa: IVY0005 - typo\n"
    )
    _api(project, {"a.py": stale})
    default = run_ivycheck(".", cwd=project)
    assert default.returncode == 0, default.stdout + default.stderr
    done = run_ivycheck("--extend-select", "IVY100", ".", cwd=project)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        f"{API}/a.py:2:23: IVY100 Unused `noqa` directive (unused: `IVY006`)",
        f"{API}/a.py:5:8: IVY100 Unused `noqa` directive (unknown: `IVY0005`)",
    ]
    fixed = run_ivycheck("--extend-select", "IVY100", "--fix", ".", cwd=project)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = (project / API / "a.py").read_text()
    assert "@handle_out_argument  # noqa: IVY005\n" in text
    assert text.endswith("y = 1\n")


def test_explain_unused_noqa(project: Path) -> None:
    done = run_ivycheck("--explain", "IVY100", cwd=project)
    assert done.returncode == 0
    assert done.stdout.startswith("IVY100 (unused-noqa): Unused `noqa` directive")
    assert "Fix: available (safe" in done.stdout
