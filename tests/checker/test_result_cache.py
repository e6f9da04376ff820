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

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.index import EncodedSummary
from ivycheck.checker.project.summary import summarize
from ivycheck.checker.run.cache import CacheEntry, ResultCache
from ivycheck.checker.run.runner import RunOptions, RunResult, run
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


def test_without_an_active_cross_file_rule_no_file_depends_on_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``NEEDS_INDEX`` is asked of the rules the configuration enables: with only IVY009
    (``out`` annotations, which reads nothing of other files) selected, removing a backend
    function re-checks that file alone, where with every rule its API files are checked
    again (the test above)."""
    assert not all_rules()["IVY009"].NEEDS_INDEX
    root = tmp_path / "tree"
    root.mkdir()
    (root / "pyproject.toml").write_text('[tool.ivycheck]\nselect = ["IVY009"]\n')
    generate(root, 100)
    monkeypatch.setenv("IVYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    cold = _run(root, cache=True)
    assert cold.cache_hits == 0

    backend = sorted((root / "ivy/functional/backends/numpy").glob("*.py"))[1]
    text = backend.read_text()
    first = text.index("\ndef fn_")
    second = text.index("\ndef fn_", first + 1)
    backend.write_text(text[:first] + text[second:])  # one implementation fewer
    changed = _run(root, cache=True)
    assert changed.cache_hits == changed.files - 1
    assert _keys(changed) == _keys(_run(root, cache=False))


def _entry(number: int, payload: int = 100) -> CacheEntry:
    summary = summarize(f"def f{number}(x, *, out=None):\n    return x\n", f"m{number}.py", "other")
    return CacheEntry(number, payload, f"digest{number}", EncodedSummary.encode(summary))


def _reloaded(directory: Path) -> dict[str, CacheEntry]:
    return ResultCache(directory).entries


def _saved(directory: Path, files: int) -> ResultCache:
    """A cache of ``files`` entries, saved whole (the first save has no main file)."""
    cache = ResultCache(directory)
    for number in range(files):
        cache.store(directory / f"m{number}.py", _entry(number))
    cache.save()
    return cache


def _one_changed(directory: Path, number: int) -> ResultCache:
    """A later run that changed one file's entry (its size now ``number``)."""
    current = ResultCache(directory)
    current.store(directory / f"m{number}.py", _entry(number, payload=number))
    current.save()
    return current


def test_a_run_that_changes_little_appends_to_a_journal(tmp_path: Path) -> None:
    cache = _saved(tmp_path, 200)
    main = next(tmp_path.glob("results-*.json"))
    before = main.read_bytes()

    again = ResultCache(tmp_path)
    assert again.entries == cache.entries and not again.dirty
    again.store(tmp_path / "m7.py", _entry(7, payload=7))
    again.store(tmp_path / "new.py", _entry(999))
    again.save()
    assert main.read_bytes() == before  # not rewritten
    journal = main.with_suffix(".journal")
    assert journal.stat().st_size < len(before) // 10
    assert _reloaded(tmp_path) == again.entries
    assert _reloaded(tmp_path)[str(tmp_path / "m7.py")].size == 7


def test_the_journal_is_folded_into_the_main_file_once_it_grows(tmp_path: Path) -> None:
    _saved(tmp_path, 40)
    main = next(tmp_path.glob("results-*.json"))
    journal = main.with_suffix(".journal")
    for run_number in range(40):
        current = _one_changed(tmp_path, run_number)
        assert _reloaded(tmp_path) == current.entries
        if not journal.exists():
            break
    else:
        pytest.fail("the journal was never folded into the main file")
    assert run_number > 1  # appended at least once before folding


def test_a_torn_journal_keeps_every_complete_record(tmp_path: Path) -> None:
    _saved(tmp_path, 100)
    for number in (1, 2):
        _one_changed(tmp_path, number)
    journal = next(tmp_path.glob("results-*.journal"))
    data = journal.read_bytes()
    for garbage in (data[:-5], data + b"\x80\x05garbage", data[: len(data) // 2 + 3]):
        journal.write_bytes(garbage)
        entries = _reloaded(tmp_path)  # no exception
        assert len(entries) == 100
        assert entries[str(tmp_path / "m1.py")].size == 1  # the first record is whole
    journal.write_bytes(data[:-5])
    assert _reloaded(tmp_path)[str(tmp_path / "m2.py")].size == 100  # torn: not replayed
