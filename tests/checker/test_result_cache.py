"""The persistent result cache: a rerun after changing one file re-checks little more than
that file, and its findings always equal an uncached run's.

A comment or a moved function changes nothing other files can see of a file (its public
facts), so only that file is re-checked; removing a backend function changes what the
API files see, so they are re-checked too.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ivycheck.checker.base import datacodec
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.index import EncodedSummary
from ivycheck.checker.project.summary import FileSummary, summarize
from ivycheck.checker.run import cache_key as cache_key_module
from ivycheck.checker.run import git_tracked
from ivycheck.checker.run.cache import (
    CacheEntry,
    ResultCache,
    _read_record,
    _record,
    cache_status,
)
from ivycheck.checker.run.cache_key import KeyUnavailable, cache_key
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


# --- only records this machine signed, read with bounds -------------------------------


@pytest.fixture
def key_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A per-user cache folder of the test's own (the key is made there on first use)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / "ivycheck"


def test_the_key_is_made_once_and_readable_by_its_user_alone(key_folder: Path) -> None:
    first = cache_key()
    assert len(first) == 32
    assert stat.S_IMODE((key_folder / "cache-key").stat().st_mode) == 0o600
    assert stat.S_IMODE(key_folder.stat().st_mode) == 0o700
    assert sorted(p.name for p in key_folder.iterdir()) == ["cache-key"]  # no temporary left
    cache_key_module._KEYS.clear()
    assert cache_key() == first  # read back, not made again


@pytest.mark.parametrize("planted", ["a link to a key", "a key others can read"])
def test_a_key_that_is_a_link_or_not_private_is_not_used(
    key_folder: Path, tmp_path: Path, planted: str
) -> None:
    key_folder.mkdir(parents=True, mode=0o700)
    known = tmp_path / "known-key"
    known.write_bytes(b"k" * 32)
    if planted == "a link to a key":
        known.chmod(0o600)
        (key_folder / "cache-key").symlink_to(known)
    else:
        (key_folder / "cache-key").write_bytes(known.read_bytes())
        (key_folder / "cache-key").chmod(0o644)
    with pytest.raises(KeyUnavailable):
        cache_key()
    cache = ResultCache(tmp_path / "cache")
    assert not cache.enabled  # the run goes on without a cache
    cache.store(tmp_path / "m1.py", _entry(1))
    cache.save()
    assert not (tmp_path / "cache").exists()


def test_a_record_verifies_only_under_the_key_that_signed_it(key_folder: Path) -> None:
    key = cache_key()
    lines = {"/p/a.py": b"[1,2]\t{}", '/p/tab\tand "quote".py': b"[]\t"}
    record = _record(lines, key)
    assert _read_record(record, 0, key) == (lines, len(record))
    assert _read_record(record, 0, b"\0" * 32) is None  # another machine's key
    for position in range(0, len(record), 7):
        flipped = record[:position] + bytes([record[position] ^ 0x04]) + record[position + 1 :]
        assert _read_record(flipped, 0, key) is None, position


@pytest.mark.parametrize(
    ("count", "length"), [(10**9, None), (None, 10**11), (10**12, 10**12), (10**13, None)]
)
def test_a_header_claiming_more_than_the_file_holds_is_rejected_unread(
    key_folder: Path, count: int | None, length: int | None
) -> None:
    """A 38-byte file claiming 10**9 lines once hung every front end: the counts are
    checked against the bytes there before anything is read (no timing asserted: a
    regression hangs the test)."""
    key = cache_key()
    record = _record({"/p/a.py": b"[]\t"}, key)
    head, _, body = record.partition(b"\n")
    word, mac, real_count, real_length = head.split(b" ")
    forged = b" ".join(
        [
            word,
            mac,
            b"%d" % count if count else real_count,
            b"%d" % length if length else real_length,
        ]
    )
    assert _read_record(forged + b"\n" + body, 0, key) is None
    assert _read_record(forged + b"\n", 0, key) is None


def test_an_entry_nested_past_the_recursion_limit_is_a_miss(
    key_folder: Path, tmp_path: Path
) -> None:
    """Signed with the right key (the bound holds even for data this machine wrote):
    ``json`` runs into the recursion limit, which is a miss like any decode failure."""
    path = tmp_path / "m1.py"
    cache = _saved(tmp_path / "cache", 1)
    [main] = (tmp_path / "cache").glob("results-*.json")
    main.write_bytes(_record({str(path): b"[" * 200_000}, cache_key()))
    assert ResultCache(tmp_path / "cache").lookup_digest(path, "digest1") is None
    assert cache.entries  # the first one was fine
    with pytest.raises(datacodec.DecodeError):
        datacodec.loads(CacheEntry, "[" * 200_000)
    with pytest.raises(datacodec.DecodeError):
        datacodec.loads(CacheEntry, b"[1e999999, \xff]")


def test_no_cached_type_contains_itself() -> None:
    """So a decoder goes no deeper than a fixed number of levels, whatever the data."""
    assert datacodec.nesting(list[dict[str, int]]) == 2
    for cached in (CacheEntry, FileSummary):  # an entry, and the summary blob in it
        assert 1 < datacodec.nesting(cached) < 20, cached


def _git(root: Path, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("version", [2, 3, 4])
def test_the_git_index_is_read_as_git_reads_it(tmp_path: Path, version: int) -> None:
    root = tmp_path / "repository"
    names = [
        ".ivycheck_cache/results.json",
        "sub/.ivycheck_cache.txt",
        "sub/.ivycheck_cache_other/x",
        "sub/deeper/.ivycheck_cache/x",
        "long/" + "/".join(["n" * 200] * 3) + ".py",
        "ünïcode/é.py",
    ]
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n")
    _git(root, "init", "-q")
    _git(root, "add", *names[:-1])
    # Intent to add sets an extended flag, which version 2 cannot hold.
    _git(root, "add", *(["-N"] if version > 2 else []), names[-1])
    _git(root, "update-index", "--index-version", str(version))
    data = (root / ".git/index").read_bytes()
    assert int.from_bytes(data[4:8], "big") == version
    listed = _git(root, "ls-files", "-z").split("\0")[:-1]
    assert [name.decode() for name in git_tracked._names(data, 20)] == listed
    assert git_tracked.tracks(root / ".ivycheck_cache")
    assert git_tracked.tracks(root / "sub/deeper/.ivycheck_cache")
    assert not git_tracked.tracks(root / "sub/.ivycheck_cache")
    assert not git_tracked.tracks(root / "elsewhere/.ivycheck_cache")
    assert not git_tracked.tracks(tmp_path / ".ivycheck_cache")  # outside the work tree


def test_a_cache_folder_git_tracks_is_neither_read_nor_written(
    key_folder: Path, tmp_path: Path
) -> None:
    root = tmp_path / "repository"
    folder = root / ".ivycheck_cache"
    _saved(folder, 3)
    _git(root, "init", "-q")
    _git(root, "add", "-f", ".ivycheck_cache")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    cache = ResultCache(folder)
    assert not cache.enabled and not cache.entries
    cache.store(root / "m9.py", _entry(9))
    cache.save()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert cache_status(folder) == f"{folder} (not used: git tracks it)"
    assert cache_status(tmp_path / "cache") == str(tmp_path / "cache")


@pytest.mark.parametrize(
    ("planted", "said"),
    [("journal linked out", "is a symbolic link"), ("main file a FIFO", "not a regular file")],
)
def test_a_link_or_a_fifo_in_the_cache_folder_is_refused_and_said_once(
    key_folder: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, planted: str, said: str
) -> None:
    """Nothing written through the link, no read blocking on the FIFO; one line."""
    folder = tmp_path / planted.replace(" ", "-")
    _saved(folder, 3)
    [main] = folder.glob("results-*.json")
    victim = tmp_path / "victim"
    victim.write_text("kept\n")
    where = main.with_suffix(".journal")
    if planted == "journal linked out":
        where.symlink_to(victim)
    else:
        main.unlink()
        os.mkfifo(main)
        where = main
    for _ in range(2):
        cache = ResultCache(folder)
        assert not cache.enabled
        cache.store(tmp_path / "m1.py", _entry(1, payload=1))
        cache.save()
    assert victim.read_text() == "kept\n"
    [line] = [r.getMessage() for r in caplog.records if r.name == "ivycheck.cache"]
    assert said in line and str(where) in line
    assert said in cache_status(folder)
