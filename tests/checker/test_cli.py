"""The real ``ivycheck`` process: exit codes, formats, fixes, suppressions, config errors."""

from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import REPO, run_ivycheck, write_tree

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

CLEAN = """\
@handle_out_argument
@to_native_arrays_and_back
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""

TEXT_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>IVY\d{3})(?: \[\*\])? .+$"
)


def _api(project: Path, files: dict[str, str]) -> Path:
    return write_tree(project, {f"ivy/functional/ivy/{k}": v for k, v in files.items()})


def test_clean_tree_exits_zero_with_summary(project: Path) -> None:
    _api(project, {"a.py": CLEAN})
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "All checks passed (1 file)" in done.stderr


def test_findings_exit_one_in_flake8_format(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": NO_COPY})
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines == [
        "ivy/functional/ivy/a.py:2:1: IVY005 [*] @handle_out_argument must be above "
        "@to_native_arrays_and_back (Ivy's decorator order)",
        "ivy/functional/ivy/b.py:2:5: IVY006 [*] @handle_view function `flip` has no keyword "
        "`copy` parameter; add `copy: Optional[bool] = None`",
    ]
    assert all(TEXT_LINE.match(line) for line in lines)
    assert "Found 2 problems (2 fixable with --fix) in 2 files." in done.stderr


def test_exit_zero_and_quiet(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", "--exit-zero", "--quiet", cwd=project)
    assert done.returncode == 0
    assert "IVY005" in done.stdout
    assert done.stderr == ""


def test_usage_error_exits_two(project: Path) -> None:
    done = run_ivycheck("--format", "yaml", cwd=project)
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def test_missing_path_is_reported_and_fails(project: Path) -> None:
    done = run_ivycheck("does-not-exist.py", cwd=project)
    assert done.returncode == 1
    assert "does-not-exist.py: no such file or directory" in done.stderr


def test_select_ignore_and_extend_select(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": NO_COPY})
    only_005 = run_ivycheck(".", "--select", "IVY005", cwd=project)
    assert {line.split()[1] for line in only_005.stdout.splitlines()} == {"IVY005"}
    ignored = run_ivycheck(".", "--ignore", "IVY005", cwd=project)
    assert {line.split()[1] for line in ignored.stdout.splitlines()} == {"IVY006"}
    extended = run_ivycheck(".", "--select", "IVY005", "--extend-select", "IVY006", cwd=project)
    assert {line.split()[1] for line in extended.stdout.splitlines()} == {"IVY005", "IVY006"}


def test_json_format_matches_documented_schema(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", "--format", "json", cwd=project)
    assert done.returncode == 1
    data = json.loads(done.stdout)
    schema = json.loads((REPO / "docs" / "json-output.schema.json").read_text())
    jsonschema.validate(data, schema)
    [finding] = data
    assert finding["code"] == "IVY005"
    assert finding["filename"] == "ivy/functional/ivy/a.py"
    assert finding["location"] == {"row": 2, "column": 1}
    assert finding["fix"]["applicability"] == "safe"
    assert finding["fix"]["edits"][0]["content"]


def test_sarif_is_valid_2_1_0_with_rule_metadata(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": NO_COPY})
    done = run_ivycheck(".", "--format", "sarif", cwd=project)
    assert done.returncode == 1
    document = json.loads(done.stdout)
    schema = json.loads((REPO / "tests" / "schemas" / "sarif-2.1.0.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    run = document["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["IVY005"]["name"] == "decorator-order"
    assert rules["IVY005"]["shortDescription"]["text"]
    assert "wrapper list" in rules["IVY005"]["fullDescription"]["text"]
    assert "wrapper list" in rules["IVY005"]["help"]["markdown"]
    assert "helpUri" not in rules["IVY005"]  # no home to link to: the help is inline
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["IVY005", "IVY006"]
    for result in results:
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 1)


def test_github_annotations(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", "--format", "github", cwd=project)
    assert done.stdout.startswith(
        "::error title=ivycheck (IVY005),file=ivy/functional/ivy/a.py,line=2,col=1,"
    )
    assert done.stdout.rstrip().endswith("(Ivy's decorator order)")


def test_fix_then_second_run_has_nothing_to_fix(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER, "b.py": NO_COPY})
    fixed = run_ivycheck(".", "--fix", cwd=project)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "Fixed 2 problems." in fixed.stderr
    api = project / "ivy/functional/ivy"
    assert (api / "a.py").read_text() == CLEAN
    assert "axis=None, copy=None, out=None" in (api / "b.py").read_text()
    again = run_ivycheck(".", "--fix", cwd=project)
    assert again.returncode == 0
    assert "Fixed 0 problems." in again.stderr
    assert run_ivycheck(".", "--diff", cwd=project).stdout == ""


def test_diff_writes_nothing(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    target = project / "ivy/functional/ivy/a.py"
    before = target.read_bytes()
    done = run_ivycheck(".", "--diff", cwd=project)
    assert done.returncode == 1
    assert "+@handle_out_argument" in done.stdout
    assert "-@handle_out_argument" in done.stdout
    assert "Would fix 1 problem" in done.stderr
    assert target.read_bytes() == before


def test_fix_keeps_crlf_and_bom(project: Path) -> None:
    target = project / "ivy/functional/ivy/a.py"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"\xef\xbb\xbf" + BAD_ORDER.replace("\n", "\r\n").encode())
    assert run_ivycheck(".", "--fix", cwd=project).returncode == 0
    assert target.read_bytes() == b"\xef\xbb\xbf" + CLEAN.replace("\n", "\r\n").encode()


def test_noqa_and_per_file_ignores(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.ivycheck]\nper-file-ignores = { "legacy/**" = ["IVY006"] }\n'
    )
    _api(
        project,
        {
            "a.py": BAD_ORDER.replace(
                "@handle_out_argument\n", "@handle_out_argument  # noqa: IVY005\n"
            ),
            "b.py": NO_COPY.replace("def flip(", "def flip(  # noqa\n"),
            "c.py": BAD_ORDER.replace(
                "@handle_out_argument\n", "@handle_out_argument  # noqa: IVY006\n"
            ),
        },
    )
    write_tree(
        project,
        {"legacy/functional/ivy/d.py": NO_COPY, "e.py": "# ivycheck: skip-file\n" + BAD_ORDER},
    )
    done = run_ivycheck(".", cwd=project)
    codes = [(line.split(":")[0], line.split()[1]) for line in done.stdout.splitlines()]
    assert codes == [("ivy/functional/ivy/c.py", "IVY005")]


def test_syntax_error_is_one_diagnostic(project: Path) -> None:
    _api(project, {"broken.py": "def f(:\n    pass\n", "a.py": BAD_ORDER})
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[1].startswith(
        "ivy/functional/ivy/broken.py:1:7: IVY000 SyntaxError:"
    )


def test_unreadable_encoding_is_one_diagnostic(project: Path) -> None:
    target = project / "bad.py"
    target.write_bytes(b"# -*- coding: utf-8 -*-\nx = '\xff\xfe'\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 1
    assert done.stdout.startswith("bad.py:1:1: IVY000 cannot decode the file as utf-8")


def test_stdin_with_filename(project: Path) -> None:
    done = run_ivycheck(
        "-", "--stdin-filename", "ivy/functional/ivy/x.py", cwd=project, stdin=BAD_ORDER
    )
    assert done.returncode == 1
    assert done.stdout.startswith("ivy/functional/ivy/x.py:2:1: IVY005")
    fixed = run_ivycheck("-", "--fix", cwd=project, stdin=BAD_ORDER)
    assert fixed.stdout == CLEAN


def test_unknown_config_key_names_key_and_file(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nselct = ['IVY005']\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert "unknown key 'selct'" in done.stderr
    assert str(project / "pyproject.toml") in done.stderr


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("select = 'IVY005'", "select must be a list of strings"),
        ("ignore = ['ivy 5']", "ignore: 'ivy 5' is not a rule code or prefix"),
        ("backends = { mxnet = 'x/**' }", "backends.mxnet must be a list of strings"),
        ("per-file-ignores = ['a']", "per-file-ignores must be a table"),
        ("respect-gitignore = 'yes'", "respect-gitignore must be true or false"),
        ("exclude = ['**/[z-a]/**']", "exclude: '**/[z-a]/**' is not a valid pattern"),
        ("exclude = ['\\']", "exclude: '\\\\' is not a valid pattern"),
        ("extend-exclude = ['[z-a]']", "extend-exclude: '[z-a]' is not a valid pattern"),
        ("functional-api = ['[z-a]']", "functional-api: '[z-a]' is not a valid pattern"),
        ("per-file-ignores = { '[z-a]' = ['IVY005'] }", "per-file-ignores: '[z-a]' is not a"),
        ("backends = { paddle = ['[z-a]'] }", "backends.paddle: '[z-a]' is not a valid pattern"),
    ],
)
def test_bad_config_values_exit_two(project: Path, table: str, message: str) -> None:
    (project / "pyproject.toml").write_text(f"[tool.ivycheck]\n{table}\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert message in done.stderr
    assert "pyproject.toml" in done.stderr


def test_invalid_toml_exits_two(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ivycheck\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert "invalid TOML" in done.stderr


def test_config_option_overrides_nearest(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    other = project / "other.toml"
    other.write_text("ignore = ['IVY005']\n")
    assert run_ivycheck(".", "--config", other, cwd=project).returncode == 0
    assert run_ivycheck(".", cwd=project).returncode == 1


def test_explain_and_list_rules(project: Path) -> None:
    explained = run_ivycheck("--explain", "ivy006", cwd=project)
    assert explained.returncode == 0
    assert explained.stdout.startswith("IVY006 (view-without-copy):")
    assert "Fix: available (safe" in explained.stdout
    assert "Flagged" in explained.stdout and "Not flagged" in explained.stdout
    listed = run_ivycheck("--list-rules", cwd=project)
    listed_codes = [line.split()[0] for line in listed.stdout.splitlines()[1:]]
    assert listed_codes == sorted(listed_codes)
    assert {"IVY000", "IVY005", "IVY006", "IVY999"} <= set(listed_codes)
    assert "IVY005  decorator-order" in listed.stdout
    unknown = run_ivycheck("--explain", "IVY123", cwd=project)
    assert unknown.returncode == 2


def test_statistics_and_show_source(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    done = run_ivycheck(".", "--statistics", cwd=project)
    assert done.stdout == "    1\tIVY005\t[*] decorator-order\n"
    shown = run_ivycheck(".", "--show-source", cwd=project)
    assert shown.stdout.splitlines()[1:] == ["@handle_out_argument", "^"]


def test_version(project: Path) -> None:
    done = run_ivycheck("--version", cwd=project)
    assert re.fullmatch(r"ivycheck \d+\.\d+\.\d+\n", done.stdout)
    # Written out in the package (cheaper to import); it must be what was installed.
    assert done.stdout == f"ivycheck {importlib.metadata.version('ivycheck-lint')}\n"


def test_color_only_when_forced_or_terminal(project: Path) -> None:
    _api(project, {"a.py": BAD_ORDER})
    plain = run_ivycheck(".", cwd=project)
    assert "\x1b[" not in plain.stdout
    forced = run_ivycheck(".", cwd=project, env={"FORCE_COLOR": "1", "NO_COLOR": ""})
    assert "\x1b[" in forced.stdout


def test_gitignore_exclude_and_default_skips(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nexclude = ['generated/']\n")
    (project / ".gitignore").write_text("ignored_by_git.py\n")
    (project / ".git").mkdir()
    write_tree(
        project,
        {
            "ignored_by_git.py": BAD_ORDER,
            "generated/x.py": BAD_ORDER,
            ".venv/lib/x.py": BAD_ORDER,
            "build/x.py": BAD_ORDER,
            "kept.py": BAD_ORDER,
        },
    )
    done = run_ivycheck(".", cwd=project)
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == ["kept.py"]
    explicit = run_ivycheck("generated", cwd=project)
    assert [line.split(":")[0] for line in explicit.stdout.splitlines()] == ["generated/x.py"]


def test_jobs_two_matches_jobs_one(project: Path) -> None:
    files = {f"m{i}.py": (BAD_ORDER if i % 2 else NO_COPY) for i in range(24)}
    _api(project, files)
    one = run_ivycheck(".", "--no-cache", "--jobs", "1", cwd=project)
    two = run_ivycheck(".", "--no-cache", "--jobs", "2", cwd=project)
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) == 24


def test_cache_is_invalidated_by_edits_and_config(project: Path) -> None:
    _api(project, {"a.py": CLEAN})
    assert run_ivycheck(".", cwd=project).returncode == 0
    assert (project / ".ivycheck_cache").is_dir()
    target = project / "ivy/functional/ivy/a.py"
    target.write_text(BAD_ORDER)
    assert run_ivycheck(".", cwd=project).returncode == 1
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nignore = ['IVY005']\n")
    assert run_ivycheck(".", cwd=project).returncode == 0
