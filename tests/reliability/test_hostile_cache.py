"""A result cache a repository carries is data, never code, and a bad one never breaks a run.

``.ivycheck_cache/`` can arrive with a pull request (checked in, or planted), and CI,
pre-commit, flake8 and the editor all read it. Whatever is in it — random bytes, a torn or
bit-flipped file, a crafted pickle from an older format, entries of a foreign shape signed
with the user's own key — a run gives exactly the findings of ``--no-cache``, exits as that
run does, prints no traceback, and the next save replaces the bad file with a good one.
(Forged, planted and linked caches: ``test_planted_cache.py``.)
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ivycheck.checker.run import cache
from ivycheck.checker.run.cache_key import cache_key
from tests.helpers import run_ivycheck, write_tree

FILES = {
    "pyproject.toml": "[tool.ivycheck]\n",
    "ivy/functional/ivy/elementwise.py": """\
        @to_native_arrays_and_back
        @handle_out_argument
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)
        """,
    "ivy/functional/backends/numpy/elementwise.py": """\
        import numpy as np

        def tan(x, /, *, out=None):
            return np.tan(x, out=out)
        """,
}


class _Exploit:
    """Unpickling this runs a shell command that leaves a marker file behind."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Callable[[str], int], tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def _project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", FILES)


def _cache_files(root: Path) -> list[Path]:
    return sorted((root / ".ivycheck_cache").glob("results-*"))


def _check(root: Path, *extra: str) -> tuple[int, str, str]:
    done = run_ivycheck(".", *extra, cwd=root)
    return done.returncode, done.stdout, done.stderr


def _flip_one_byte(data: bytes) -> bytes:
    position = random.Random(len(data)).randrange(len(data))
    return data[:position] + bytes([data[position] ^ 0x10]) + data[position + 1 :]


CORRUPTIONS: dict[str, Callable[[bytes], bytes]] = {
    "random bytes": lambda data: random.Random(7).randbytes(len(data)),
    "truncated": lambda data: data[: len(data) // 2],
    "flipped byte": _flip_one_byte,
    "flipped byte in the header": lambda data: b"J" + data[1:],
    "empty": lambda data: b"",
    "a well-formed record of another shape": lambda data: _foreign_record(data),
}


def _foreign_record(data: bytes) -> bytes:
    """Signed with this user's own key, so it verifies: entries that are no cache entries
    (they reach the decoder, which must turn them into misses)."""
    paths = [line.partition(b"\t")[0] for line in data.partition(b"\n")[2].splitlines()]
    entries = (b"[1,2]", b'{"a":1}', b"null", b"[" * 100_000)
    return cache._record(
        {json.loads(path): entry for path, entry in zip(paths, entries, strict=False)},
        cache_key(),
    )


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupt_cache_costs_only_rechecking(tmp_path: Path, corruption: str) -> None:
    root = _project(tmp_path)
    expected = _check(root, "--no-cache")
    assert expected[0] == 1 and "IVY005" in expected[1]
    assert _check(root) == expected  # writes the cache
    for cache_file in _cache_files(root):
        cache_file.write_bytes(CORRUPTIONS[corruption](cache_file.read_bytes()))

    code, stdout, stderr = _check(root)
    assert (code, stdout) == expected[:2]
    assert "Traceback" not in stderr and "Error" not in stderr
    assert _check(root) == expected  # and the cache works again


def test_every_flipped_byte_of_the_main_file_is_harmless(tmp_path: Path) -> None:
    root = _project(tmp_path)
    expected = _check(root, "--no-cache")
    _check(root)
    [main] = [path for path in _cache_files(root) if path.suffix == ".json"]
    good = main.read_bytes()
    for position in random.Random(3).sample(range(len(good)), 20):
        main.write_bytes(good[:position] + bytes([good[position] ^ 0x01]) + good[position + 1 :])
        code, stdout, stderr = _check(root)
        assert (code, stdout) == expected[:2], position
        assert "Traceback" not in stderr


def _plant_exploit(root: Path, marker: Path) -> None:
    crafted = pickle.dumps(_Exploit(marker))
    folder = root / ".ivycheck_cache"
    folder.mkdir(exist_ok=True)
    names = [path.name for path in _cache_files(root)] or []
    # The names this version reads, and the older pickle names a repository may carry.
    for name in {*names, "results-0.1.0-c68a1299.pickle", "results-0.1.0-c68a1299.journal"}:
        (folder / name).write_bytes(crafted)


def test_a_crafted_pickle_in_the_cache_runs_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    expected = _check(root, "--no-cache")
    _check(root)  # so the planted files carry the names this version reads
    marker = tmp_path / "exploited"
    _plant_exploit(root, marker)
    code, stdout, stderr = _check(root)
    assert not marker.exists()
    assert (code, stdout) == expected[:2] and "Traceback" not in stderr


def test_the_flake8_plugin_reads_a_hostile_cache_without_harm(tmp_path: Path) -> None:
    root = _project(tmp_path)
    flake8 = [sys.executable, "-m", "flake8", "--select", "IVY", "."]
    expected = subprocess.run(flake8, cwd=root, capture_output=True, text=True, timeout=120)
    assert "IVY005" in expected.stdout
    marker = tmp_path / "exploited"
    _plant_exploit(root, marker)
    planted = subprocess.run(flake8, cwd=root, capture_output=True, text=True, timeout=120)
    assert not marker.exists()
    assert (planted.returncode, planted.stdout) == (expected.returncode, expected.stdout)
    assert "Traceback" not in planted.stderr
    for cache_file in _cache_files(root):
        cache_file.write_bytes(b"\x80\x05garbage")
    garbage = subprocess.run(flake8, cwd=root, capture_output=True, text=True, timeout=120)
    assert (garbage.returncode, garbage.stdout) == (expected.returncode, expected.stdout)


@pytest.mark.asyncio
@pytest.mark.parametrize("planted", ["crafted pickle", "random bytes"])
async def test_the_language_server_reads_a_hostile_cache_without_harm(
    tmp_path: Path, planted: str
) -> None:
    """The real server over stdio, on a workspace whose cache was planted: the diagnostics
    of a clean workspace, and the crafted pickle runs nothing."""
    from tests.lsp.harness import open_document, published, server

    root = _project(tmp_path)
    _check(root)  # a real cache first, so the planted files carry the names read
    marker = tmp_path / "exploited"
    if planted == "crafted pickle":
        _plant_exploit(root, marker)
    else:
        for cache_file in _cache_files(root):
            cache_file.write_bytes(random.Random(5).randbytes(4096))
    async with server(root) as client:
        document = open_document(client, root / "ivy/functional/ivy/elementwise.py")
        [found] = await published(client, document, lambda d: len(d) == 1)
    assert found.code == "IVY005"
    assert not marker.exists()
