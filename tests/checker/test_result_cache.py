"""The persistent result cache: a rerun after changing one file re-checks little more than
that file, and its findings always equal an uncached run's.

A comment or a moved function changes nothing other files can see of a file (its public
facts), so only that file is re-checked; removing a backend function changes what the
API files see, so they are re-checked too.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ivycheck.checker.runner import RunOptions, RunResult, run
from tests.helpers import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from corpus import generate


def _run(root: Path, cache: bool) -> RunResult:
    return run(RunOptions(paths=(root,), jobs=1, use_cache=cache))


def _keys(result: RunResult) -> list[tuple[str, int, int, str]]:
    return [(d.path, d.line, d.col, d.code) for d in result.diagnostics]


def test_one_touched_file_is_the_only_one_checked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    generate(root, 300)
    monkeypatch.setenv("IVYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    cold = _run(root, cache=True)
    assert cold.cache_hits == 0 and cold.diagnostics
    warm = _run(root, cache=True)
    assert warm.cache_hits == warm.files
    assert _keys(warm) == _keys(cold)

    api = sorted((root / "ivy/functional/ivy").glob("*.py"))[1]
    api.write_text(api.read_text() + "\n# a comment moves nothing other files see\n")
    touched = _run(root, cache=True)
    assert touched.cache_hits == touched.files - 1
    assert _keys(touched) == _keys(_run(root, cache=False))

    backend = root / "ivy/functional/backends/numpy" / api.name
    text = backend.read_text()
    first = text.index("\ndef fn_")
    second = text.index("\ndef fn_", first + 1)
    backend.write_text(text[:first] + text[second:])  # one implementation fewer
    changed = _run(root, cache=True)
    assert changed.cache_hits < changed.files - 1  # dependents are checked again
    assert _keys(changed) == _keys(_run(root, cache=False))
