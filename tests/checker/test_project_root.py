"""One project root per file, found from the file: the same findings from any folder and
through ``--stdin-filename``, and the cache (every file the tool writes) inside that root.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from ivycheck.checker.project.roots import marker_root, too_wide
from ivycheck.checker.run.runner import Runner, RunOptions
from tests.helpers import run_ivycheck, write_tree

API = "pkg/functional/ivy/api_mistakes.py"
FILES = {
    API: """\
        def matrix_transpose(x, /):
            return current_backend(x).matrix_transpose(x)


        @handle_out_argument
        def log1p(x, /, *, out=None):
            return current_backend(x).log_1p(x, out=out)
        """,
    "pkg/functional/backends/numpy/manipulation.py": """\
        import numpy as np

        def matrix_transpose(x, /):
            return np.swapaxes(x, -1, -2)

        def log1p(x, /, *, out=None):
            return np.log1p(x, out=out)
        """,
}
CROSS_FILE = {"IVY011", "IVY017"}


def _codes(stdout: str) -> list[tuple[int, str]]:
    return sorted((d["location"]["row"], d["code"]) for d in json.loads(stdout))


def _project(tmp_path: Path, marker: str | None = ".git") -> Path:
    root = write_tree(tmp_path / "outer" / "proj", FILES)
    if marker == ".git":
        (root / ".git").mkdir()
    elif marker is not None:
        (root / marker).write_text("", encoding="utf-8")
    return root


def test_a_file_gets_the_same_findings_from_any_folder_and_from_stdin(tmp_path: Path) -> None:
    root = _project(tmp_path)
    at_root = _codes(run_ivycheck("--format", "json", API, cwd=root).stdout)
    assert {code for _, code in at_root} >= CROSS_FILE
    inside = root / "pkg/functional/ivy"
    assert _codes(run_ivycheck("--format", "json", "api_mistakes.py", cwd=inside).stdout) == at_root
    parent = tmp_path / "outer"  # no marker here: the file's own project still counts
    from_parent = run_ivycheck("--format", "json", f"proj/{API}", cwd=parent)
    assert _codes(from_parent.stdout) == at_root
    text = (root / API).read_text()
    for cwd, name in ((root, API), (parent, f"proj/{API}"), (inside, "api_mistakes.py")):
        piped = run_ivycheck("--format", "json", "-", "--stdin-filename", name, cwd=cwd, stdin=text)
        assert _codes(piped.stdout) == at_root, cwd
    # Standard input is what the file holds now: an edit there is seen by the index too.
    edited = text.replace("log_1p", "log1p")
    piped = run_ivycheck("--format", "json", "-", "--stdin-filename", API, cwd=root, stdin=edited)
    assert "IVY017" not in {code for _, code in _codes(piped.stdout)}


def test_the_cache_goes_to_the_project_root_whatever_the_working_directory(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, marker="pyproject.toml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run_ivycheck(root / API, cwd=elsewhere)
    run_ivycheck("api_mistakes.py", cwd=root / "pkg/functional/ivy")
    assert not any(elsewhere.iterdir())
    assert not (root / "pkg/functional/ivy/.ivycheck_cache").exists()
    assert list((root / ".ivycheck_cache").glob("results-*"))


def test_a_configuration_named_elsewhere_gets_no_cache_beside_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    settings = tmp_path / "settings"
    settings.mkdir()
    (settings / "ivycheck.toml").write_text('ignore = ["IVY006"]\n', encoding="utf-8")
    done = run_ivycheck("--config", settings / "ivycheck.toml", ".", cwd=root)
    assert done.returncode == 1 and "IVY017" in done.stdout
    assert [p.name for p in settings.iterdir()] == ["ivycheck.toml"]
    assert (root / ".ivycheck_cache").is_dir()


def test_a_tree_without_markers_is_indexed_from_the_folder_named(tmp_path: Path) -> None:
    """From a parent folder without a marker, ``ivycheck gen`` indexes ``gen`` only."""
    gen = write_tree(tmp_path / "work" / "gen", FILES)
    write_tree(tmp_path / "work" / "unrelated", {"big.py": "x = 1\n"})
    runner = Runner(RunOptions(paths=(Path("gen"),), use_cache=False))
    import os

    previous = os.getcwd()
    os.chdir(tmp_path / "work")
    try:
        assert runner.workspace.roots_of([Path("gen")]) == [gen]
        assert runner.workspace.config_for(gen / API).root == gen
        assert runner.cache_dir() == gen / ".ivycheck_cache"
    finally:
        os.chdir(previous)
    whole = _codes(run_ivycheck("--format", "json", "gen", cwd=tmp_path / "work").stdout)
    assert {code for _, code in whole} >= CROSS_FILE
    assert not (tmp_path / "work" / ".ivycheck_cache").exists()


def test_no_root_is_the_home_the_temporary_folder_or_the_filesystem_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file lying directly in one of them is rooted at itself; a project below one keeps
    its own root; the search for markers stops below them (a marker in the home folder
    itself does not make it a project)."""
    home, temporary = tmp_path / "home", tmp_path / "tmp"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    write_tree(home, {"loose.py": "", ".git/HEAD": "", "plain/module.py": ""})
    write_tree(temporary, {"loose.py": "", "proj/setup.py": "", "proj/pkg/mod.py": ""})
    assert marker_root(home / "loose.py") == home / "loose.py"
    assert marker_root(temporary / "loose.py") == temporary / "loose.py"
    assert marker_root(home / "plain/module.py") == home / "plain"
    assert marker_root(temporary / "proj/pkg/mod.py") == temporary / "proj"
    assert marker_root(Path("/x.py")) == Path("/x.py")
    assert too_wide(home) and too_wide(temporary) and too_wide(Path("/"))
    assert not too_wide(home / "plain")
