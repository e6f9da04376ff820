"""The command-line comforts a ruff or flake8 user expects, on the real ``ivycheck``
process: a reason on every IVY000, ``--output-file``, "did you mean" for configuration
keys and backend names, and a summary that says what this run did."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ivycheck.checker.core.engine import FixOutcome
from ivycheck.checker.run import runner
from tests.checker.test_cli import BAD_ORDER, CLEAN
from tests.checker.test_cli_progress import without_terminal_settings
from tests.helpers import IVYCHECK, REPO, run_ivycheck, write_tree


def test_a_file_cpython_cannot_parse_for_memory_says_why(project: Path) -> None:
    """CPython raises a bare ``MemoryError`` (no message) for 100,000 unary minuses."""
    write_tree(project, {"deep.py": "x = " + "-" * 100_000 + "1\n"})
    done = run_ivycheck("deep.py", "--no-cache", cwd=project)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        "deep.py:1:1: IVY000 cannot parse file: "
        "too deeply nested / out of memory while parsing (MemoryError)"
    )


def test_an_unknown_config_key_gets_the_closest_known_one(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nper-file-ignore = {}\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert (
        f"ivycheck: error: {project / 'pyproject.toml'}: unknown key 'per-file-ignore' in "
        "[tool.ivycheck]; did you mean 'per-file-ignores'? (known keys: "
    ) in done.stderr


def test_an_unknown_backend_name_is_an_error_with_a_suggestion(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.ivycheck]\nbackends = { tensorflw = ['lib/tf/**'] }\n"
    )
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert (
        "[tool.ivycheck] backends: unknown backend 'tensorflw'; did you mean 'tensorflow'? "
        "(known backends: numpy, torch, jax, tensorflow, dask, paddle, mxnet)"
    ) in done.stderr


def test_every_backend_folder_of_the_ivy_snapshots_is_a_known_backend_name(
    project: Path,
) -> None:
    """The names ``backends`` accepts include each backend Ivy's own tree has."""
    corpora = REPO.parent / "shared" / "corpora"
    folders = sorted(
        {p.name for p in corpora.glob("ivy-*/ivy/functional/backends/*") if p.is_dir()}
        - {"__pycache__"}
    )
    assert folders, f"no Ivy snapshot under {corpora}"
    table = "".join(f"{name} = ['lib/{name}/**']\n" for name in folders)
    (project / "pyproject.toml").write_text(f"[tool.ivycheck.backends]\n{table}")
    write_tree(project, {"lib/paddle/a.py": "x = 1\n"})
    done = run_ivycheck("--show-files", ".", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "lib/paddle/a.py\tbackend:paddle" in done.stdout


def test_output_file_takes_the_report_and_stderr_keeps_the_summary(project: Path) -> None:
    write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER})
    done = run_ivycheck("--format", "json", "--output-file", "reports/ivy.json", ".", cwd=project)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "Found 1 problem (1 fixable with --fix) in 1 file.\n"
    report = json.loads((project / "reports" / "ivy.json").read_text())
    assert [(f["filename"], f["code"]) for f in report] == [("ivy/functional/ivy/a.py", "IVY005")]
    assert sorted(p.name for p in (project / "reports").iterdir()) == ["ivy.json"]


def test_output_file_is_replaced_whole_not_rewritten_in_place(project: Path) -> None:
    """A reader of the old report (a CI upload, a tail under --watch) keeps reading the
    old report whole: the new one is a new file renamed over it, never a file truncated
    and written bit by bit."""
    write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER})
    report = project / "report.txt"
    report.write_text("old report\n")
    report.chmod(0o640)
    with report.open() as old_reader:
        done = run_ivycheck("-o", "report.txt", ".", cwd=project)
        assert old_reader.read() == "old report\n"
    assert done.returncode == 1
    assert report.read_text().startswith("ivy/functional/ivy/a.py:2:1: IVY005")
    assert report.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".report")) == []


def test_output_file_that_cannot_be_written_is_a_clear_error(project: Path) -> None:
    write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER, "taken/x": ""})
    done = run_ivycheck("-o", "taken", ".", cwd=project)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "ivycheck: error: taken: cannot write the report: Is a directory" in done.stderr


def test_a_fix_found_already_written_by_another_run_is_not_counted_as_remaining(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another ``--fix`` writes the same fix after this run read the file and before it
    writes: this run fixed nothing, and nothing remains."""
    path = write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER}) / "ivy/functional/ivy/a.py"
    real_fix = runner.fix_source

    def another_run_fixes_first(source: str, **kwargs: Any) -> FixOutcome:
        outcome = real_fix(source, **kwargs)
        path.write_text(outcome.source)
        return outcome

    monkeypatch.setattr(runner, "fix_source", another_run_fixes_first)
    result = runner.run(runner.RunOptions(paths=[path], fix=True, jobs=1, use_cache=False))
    assert path.read_text() == CLEAN
    assert (result.fixed, result.already_fixed) == (0, 1)
    assert result.diagnostics == []
    assert result.problems == []


def test_another_change_meanwhile_reports_the_file_as_it_now_reads(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER}) / "ivy/functional/ivy/a.py"
    edited = BAD_ORDER + "\n\n" + BAD_ORDER.replace("tan", "sin")
    real_fix = runner.fix_source

    def someone_saves(source: str, **kwargs: Any) -> FixOutcome:
        path.write_text(edited)
        return real_fix(source, **kwargs)

    monkeypatch.setattr(runner, "fix_source", someone_saves)
    result = runner.run(runner.RunOptions(paths=[path], fix=True, jobs=1, use_cache=False))
    assert path.read_text() == edited
    assert (result.fixed, result.already_fixed) == (0, 0)
    assert [(d.code, d.line) for d in result.diagnostics] == [("IVY005", 2), ("IVY005", 8)]
    assert [p for p in result.problems if "not fixed" in p]


SUMMARY = re.compile(
    r"Fixed (?P<fixed>\d+) problems?(?: \((?P<already>\d+) already fixed on disk by another "
    r"run\))?\. All checks passed \((?P<files>\d+) files\)\."
)


def test_two_concurrent_fix_runs_each_say_what_they_did(project: Path) -> None:
    """Whichever run writes a file first, every problem is fixed once, by one of them,
    and neither reports as remaining what the other fixed."""
    count = 60
    write_tree(project, {f"ivy/functional/ivy/m{i}.py": BAD_ORDER for i in range(count)})
    environment = without_terminal_settings()
    command = [str(IVYCHECK), "--fix", "--no-cache", "--jobs", "1", "."]
    runs = [
        subprocess.Popen(
            command,
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    summaries = []
    for run, (stdout, stderr) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, stderr
        assert stdout == ""
        summary = SUMMARY.fullmatch(stderr.strip())
        assert summary is not None, stderr
        summaries.append(summary)
    assert sum(int(s["fixed"]) for s in summaries) == count
    for summary in summaries:
        assert int(summary["files"]) == count
        assert int(summary["fixed"]) + int(summary["already"] or 0) <= count
    assert all(p.read_text() == CLEAN for p in (project / "ivy/functional/ivy").iterdir())
