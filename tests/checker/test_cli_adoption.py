"""The real ``ivycheck`` process, adopting it on a tree: unused ``# noqa`` (IVY100),
``--add-noqa``, baselines, selector validation and the command-line conventions of
issue 17."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
        f"{API}/a.py:2:23: IVY100 [*] Unused `noqa` directive (unused: `IVY006`)",
        f"{API}/a.py:5:8: IVY100 [*] Unused `noqa` directive (unknown: `IVY0005`)",
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


UNSAFE = """\
def tan(x, out=None):
    return x
"""


def test_unknown_selector_on_the_command_line_exits_two_naming_it(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck("--select", "IVYOO4", ".", cwd=project)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "ivycheck: error: --select: unknown rule selector 'IVYOO4'; did you mean 'IVY004'?\n"
    )


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('select = ["IVY999X"]', "select: unknown rule selector 'IVY999X'; did you mean 'IVY999'?"),
        ('ignore = ["IVY0005"]', "ignore: unknown rule selector 'IVY0005'; did you mean 'IVY005'?"),
        (
            'per-file-ignores = { "a/**" = ["IVY6"] }',
            "per-file-ignores.'a/**': unknown rule selector 'IVY6'",
        ),
        (
            'decorator-order = ["handle_out_argumnt"]',
            "decorator-order: unknown decorator 'handle_out_argumnt'; did you mean "
            "'handle_out_argument'?",
        ),
    ],
)
def test_unknown_names_in_the_configuration_exit_two(
    project: Path, table: str, message: str
) -> None:
    (project / "pyproject.toml").write_text(f"[tool.ivycheck]\n{table}\n")
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert f"pyproject.toml: {message}" in done.stderr
    assert "All checks passed" not in done.stderr


def test_missing_path_is_not_reported_as_passing(project: Path) -> None:
    done = run_ivycheck("missing.py", cwd=project)
    assert done.returncode == 1
    assert done.stderr == "ivycheck: error: missing.py: no such file or directory\n"
    _api(project, {"a.py": BAD_ORDER.replace("@to_native_arrays_and_back\n", "")})
    mixed = run_ivycheck(".", "missing.py", cwd=project)
    assert mixed.returncode == 1
    assert "All checks passed" not in mixed.stderr
    assert "1 path could not be checked" in mixed.stderr


def test_folder_without_python_files_warns_and_exits_zero(project: Path) -> None:
    (project / "docs").mkdir()
    (project / "docs" / "notes.txt").write_text("not python\n")
    done = run_ivycheck("docs", cwd=project)
    assert done.returncode == 0
    assert done.stderr == "ivycheck: warning: No Python files found under the given path(s)\n"


def test_list_rules_as_json(project: Path) -> None:
    done = run_ivycheck("--list-rules", "--format", "json", cwd=project)
    assert done.returncode == 0
    rules = json.loads(done.stdout)
    by_code = {rule["code"]: rule for rule in rules}
    assert by_code["IVY005"]["name"] == "decorator-order"
    assert by_code["IVY005"]["fix"] == "safe"
    assert by_code["IVY100"]["severity"] == "warning"
    assert [rule["code"] for rule in rules] == sorted(by_code)


def test_explain_by_rule_name(project: Path) -> None:
    by_name = run_ivycheck("--explain", "decorator-order", cwd=project)
    by_code = run_ivycheck("--explain", "ivy005", cwd=project)
    assert by_name.returncode == 0
    assert by_name.stdout == by_code.stdout
    assert by_name.stdout.startswith("IVY005 (decorator-order)")
    unknown = run_ivycheck("--explain", "decorator-ordr", cwd=project)
    assert unknown.returncode == 2


def test_fixable_marker_and_hidden_unsafe_fixes(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": UNSAFE})
    done = run_ivycheck(".", cwd=project)
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{API}/a.py:2:1: IVY005 [*] ")
    assert lines[1].startswith(f"{API}/b.py:1:12: IVY008 ")
    assert "[*]" not in lines[1]
    assert "1 hidden fix can be enabled with the --unsafe-fixes option." in done.stderr
    unsafe = run_ivycheck(".", "--unsafe-fixes", cwd=project)
    assert f"{API}/b.py:1:12: IVY008 [*] " in unsafe.stdout
    assert "hidden" not in unsafe.stderr


def test_diff_counts_problems_and_changed_files(project: Path) -> None:
    two = BAD_ORDER + "\n\n" + NO_COPY
    _api(project, {"a.py": two, "b.py": NO_COPY, "c.py": "x = 1\n"})
    done = run_ivycheck("--diff", ".", cwd=project)
    assert done.returncode == 1
    assert "Would fix 3 problems in 2 files." in done.stderr


def test_statistics_prints_only_the_table(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": BAD_ORDER, "c.py": NO_COPY})
    done = run_ivycheck("--statistics", ".", cwd=project)
    assert done.returncode == 1
    assert done.stdout == (
        "    2\tIVY005\t[*] decorator-order\n    1\tIVY006\t[*] view-without-copy\n"
    )
    assert done.stderr == ""
