"""The real ``ivycheck`` process, adopting it on a tree: unused ``# noqa`` (IVY100),
``--add-noqa``, baselines, selector validation and the command-line conventions of
issue 17."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import IVYCHECK, REPO, run_ivycheck, write_tree

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


def test_show_files_names_each_part_and_warns_of_globs_matching_nothing(
    project: Path,
) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.ivycheck]\n"
        'functional-api = ["src/api/**"]\n'
        'backends = { torch = ["src/torch_backend/**"] }\n'
        'data-classes = ["src/containers/**"]\n'
    )
    write_tree(
        project,
        {
            "src/api/a.py": "x = 1\n",
            "src/torch_backend/b.py": "x = 1\n",
            "ivy/functional/frontends/c.py": "x = 1\n",
            "tools/d.py": "x = 1\n",
        },
    )
    done = run_ivycheck("--show-files", ".", cwd=project)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "ivy/functional/frontends/c.py\tfrontend\tfrontends: '**/functional/frontends/**'",
        "src/api/a.py\tfunctional API\tfunctional-api: 'src/api/**'",
        "src/torch_backend/b.py\tbackend:torch\tbackends.torch: 'src/torch_backend/**'",
        "tools/d.py\tother",
    ]
    assert done.stderr == (
        "ivycheck: warning: data-classes pattern 'src/containers/**' "
        f"({project / 'pyproject.toml'}) matches no checked file\n"
    )


def test_show_files_names_an_api_module_found_by_its_code(project: Path) -> None:
    """2022 Ivy kept API functions in ivy/functional/experimental/, outside the default
    globs: a module whose public function dispatches to the current backend and carries
    a wrapper is functional API, and --show-files says which function made it so."""
    write_tree(
        project,
        {
            "ivy/functional/experimental/creation.py": (
                "@handle_out_argument\n"
                "def hann_window(size, /, *, out=None):\n"
                "    return current_backend().hann_window(size, out=out)\n"
            ),
            "ivy/functional/experimental/helpers.py": (
                "def hann_window(size):\n    return current_backend().hann_window(size)\n"
            ),
        },
    )
    done = run_ivycheck("--show-files", ".", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "ivy/functional/experimental/creation.py\tfunctional API\tdispatches to the current "
        "backend: `hann_window` calls current_backend(...).hann_window and carries "
        "@handle_out_argument",
        "ivy/functional/experimental/helpers.py\tother",
    ]


def test_show_settings_prints_the_resolved_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.ivycheck]\nignore = ["IVY001"]\nfunctional-api = ["src/api/**"]\n'
    )
    write_tree(project, {"src/api/a.py": "x = 1\n"})
    done = run_ivycheck("--show-settings", "--extend-select", "IVY100", "src/api/a.py", cwd=project)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert f"# configuration file: {project / 'pyproject.toml'}" in lines
    assert "# part of src/api/a.py: functional API" in lines
    assert 'ignore = ["IVY001"]' in lines
    assert 'extend-select = ["IVY100"]' in lines
    assert 'functional-api = ["src/api/**"]' in lines
    assert "max-file-size = 1048576" in lines


@pytest.mark.parametrize("content", ['ignore = ["IVY006"]\n', ""])
def test_show_settings_names_the_file_given_with_config(project: Path, content: str) -> None:
    """``--config F`` names ``F``, even one without an ivycheck table (the defaults)."""
    settings = project / "elsewhere" / "ivycheck.toml"
    write_tree(project, {"elsewhere/ivycheck.toml": content, "src/a.py": "x = 1\n"})
    done = run_ivycheck("--show-settings", "--config", settings, "src/a.py", cwd=project)
    assert done.returncode == 0
    assert f"# configuration file: {settings}" in done.stdout.splitlines()


@pytest.mark.parametrize("name", ["ivycheck.toml", ".ivycheck.toml"])
def test_ivycheck_toml_is_found_like_pyproject(project: Path, name: str) -> None:
    (project / "pyproject.toml").unlink()
    write_tree(project, {"sub/pkg/" + name: 'ignore = ["IVY005"]\n'})
    _api(project / "sub" / "pkg", {"a.py": BAD_ORDER})
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", cwd=project)
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == [f"{API}/a.py"]
    # The dotted file wins over the plain one and over pyproject.toml in one folder.
    write_tree(project, {"sub/pkg/pyproject.toml": '[tool.ivycheck]\nignore = ["IVY006"]\n'})
    again = run_ivycheck("sub", cwd=project)
    assert again.returncode == 0, again.stdout


def test_baseline_hides_known_findings_when_lines_move_and_drops_fixed_ones(
    project: Path,
) -> None:
    _api(project, {"a.py": BAD_ORDER + "\n\n" + NO_COPY, "b.py": NO_COPY})
    written = run_ivycheck("--write-baseline", "ivycheck-baseline.json", ".", cwd=project)
    assert written.returncode == 0
    assert written.stdout == ""
    assert written.stderr == "ivycheck: Wrote 3 findings to ivycheck-baseline.json.\n"
    baseline = json.loads((project / "ivycheck-baseline.json").read_text())
    assert [(f["path"], f["code"]) for f in baseline["findings"]] == sorted(
        [(f"{API}/a.py", "IVY005"), (f"{API}/a.py", "IVY006"), (f"{API}/b.py", "IVY006")]
    )
    # Lines move (code above), one finding is fixed, one new one appears.
    a = project / API / "a.py"
    a.write_text("import math\n\n\n" + BAD_ORDER + "\n\n" + NO_COPY)
    (project / API / "b.py").write_text(NO_COPY.replace("out=None)", "out=None, copy=None)"))
    _api(project, {"c.py": BAD_ORDER})
    done = run_ivycheck("--baseline", "ivycheck-baseline.json", ".", cwd=project)
    assert done.returncode == 1
    assert [line.split(": ")[0:2] for line in done.stdout.splitlines()] == [
        [
            f"{API}/c.py:2:1",
            "IVY005 [*] @handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
        ],
    ]
    assert "2 findings in the baseline not shown." in done.stderr
    assert "1 baseline entry fixed since" in done.stderr
    # Rewriting against the baseline drops the fixed entry and does not adopt c.py's.
    shrink = run_ivycheck(
        "--baseline",
        "ivycheck-baseline.json",
        "--write-baseline",
        "ivycheck-baseline.json",
        ".",
        cwd=project,
    )
    assert shrink.returncode == 1
    rewritten = json.loads((project / "ivycheck-baseline.json").read_text())
    assert [(f["path"], f["code"]) for f in rewritten["findings"]] == [
        (f"{API}/a.py", "IVY005"),
        (f"{API}/a.py", "IVY006"),
    ]


def test_bad_baseline_file_exits_two(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    (project / "b.json").write_text("[]")
    done = run_ivycheck("--baseline", "b.json", ".", cwd=project)
    assert done.returncode == 2
    assert "b.json: not an ivycheck baseline" in done.stderr


def test_add_noqa_suppresses_every_finding_keeping_bytes(project: Path) -> None:
    _api(project, {"b.py": NO_COPY})
    crlf = (
        "\ufeff"
        + BAD_ORDER.replace("@handle_out_argument\n", "@handle_out_argument  # noqa: E501\n")
    ).replace("\n", "\r\n")
    target = project / API / "a.py"
    target.write_bytes(crlf.encode("utf-8"))
    done = run_ivycheck("--add-noqa", ".", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "Added 2 noqa directives.\n"
    assert target.read_bytes() == crlf.replace("# noqa: E501", "# noqa: E501, IVY005").encode()
    assert (project / API / "b.py").read_text() == NO_COPY.replace(
        "def flip(x, /, *, axis=None, out=None):",
        "def flip(x, /, *, axis=None, out=None):  # noqa: IVY006",
    )
    after = run_ivycheck(".", cwd=project)
    assert after.returncode == 0
    assert "All checks passed (2 files)" in after.stderr
    assert run_ivycheck("--add-noqa", ".", cwd=project).stderr == "Added 0 noqa directives.\n"


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc for workers")
def test_ctrl_c_during_a_parallel_run_prints_one_line_and_exits_130(project: Path) -> None:
    body = "".join(f"def f{i}(x, /, *, out=None):\n    return np.tan(x)\n\n" for i in range(200))
    write_tree(
        project,
        {
            f"ivy/functional/backends/numpy/m{n}.py": "import numpy as np\n\n" + body
            for n in range(120)
        },
    )
    environment = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    process = subprocess.Popen(
        [str(IVYCHECK), "--no-cache", "--jobs", "2", "."],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        start_new_session=True,  # its own process group, signalled as a terminal would
    )
    deadline = time.monotonic() + 60
    while len(_children(process.pid)) < 2 and process.poll() is None:
        assert time.monotonic() < deadline, "no worker processes started"
        time.sleep(0.05)
    time.sleep(0.5)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert stderr == "ivycheck: interrupted\n"
    assert stdout == ""


def test_show_files_with_a_backend_ivy_does_not_name(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.ivycheck]\nbackends = { paddle = ["src/paddle_backend/**"] }\n'
    )
    write_tree(project, {"src/paddle_backend/a.py": "x = 1\n"})
    done = run_ivycheck("--show-files", ".", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "src/paddle_backend/a.py\tbackend:paddle" in done.stdout


def test_show_settings_says_what_out_becomes_and_where_that_is_read(project: Path) -> None:
    """Read from the project's own wrapper when it has one (the shared Ivy snapshot), the
    documented default otherwise."""
    _api(project, {"a.py": BAD_ORDER})
    default = run_ivycheck("--show-settings", ".", cwd=project).stdout
    assert "# This project defines no `handle_out_argument`: the default below applies." in default
    corpus = REPO.parent / "shared/corpora/ivy-975c8fc"
    assert corpus.is_dir(), "the shared snapshot is missing (CI has ../shared beside the checkout)"
    done = run_ivycheck("--show-settings", "--no-cache", "ivy", cwd=corpus)
    assert done.returncode == 0, done.stderr
    assert "read from this project's\n# `handle_out_argument` at func_wrapper.py:" in done.stdout
    # The snapshot's own Ivy does this (scripts/probe_out_fate.py calls its wrapper): NumPy's
    # native path rebinds an `out` of another dtype, PyTorch's update copies into it.
    assert "# out-fate: numpy native single same=copies other=rebinds" in done.stdout
    assert "# out-fate: torch native single same=copies other=copies" in done.stdout
