"""The checker over real code: the installed standard library, NumPy, PyTorch, JAX, TensorFlow.

Every file must come out as diagnostics or IVY000 (does not parse), never as IVY999 (the
engine or a rule failed) or a traceback. The default run checks a deterministic sample
in-process, with a probe rule that forces the libcst path and the fix machinery on every
file, each file playing one Ivy part (functional API, a backend, data classes) so that the
real rules walk it too. ``slow`` runs the real ``ivycheck`` command over every file.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

from ivycheck.checker.base.sourcefile import SourceError, read_source
from ivycheck.checker.project.config import Config
from tests.reliability import corpus
from tests.reliability.probe import PARTS, check_as

SAMPLE_PER_ROOT = {"stdlib": 100, "numpy": 50, "torch": 50, "jax": 50, "tensorflow": 50}
IVYCHECK = Path(sys.executable).with_name("ivycheck")

# Files that have broken real tools: always in the sample, whatever the hash says.
KNOWN_TRAPS = (
    "pydoc_data/topics.py",
    "lib2to3/tests/data/bom.py",
    "lib2to3/tests/data/crlf.py",
    "test/tokenizedata/badsyntax_3131.py",
    "lib2to3/tests/data/different_encoding.py",
    "lib2to3/tests/data/infinite_recursion.py",
)


def _sample() -> list[Path]:
    chosen: list[Path] = []
    for name, count in SAMPLE_PER_ROOT.items():
        if name in corpus.roots():
            chosen += corpus.sample(name, count, max_bytes=40_000)
    stdlib = corpus.roots()["stdlib"]
    chosen += [stdlib / trap for trap in KNOWN_TRAPS if (stdlib / trap).exists()]
    return chosen


def test_sample_of_real_code_never_fails() -> None:
    sample = _sample()
    assert len(sample) >= 250, "the corpus should be installed (make install-dev)"
    config = Config(root=Path("/"))
    ivy_parts = PARTS[1:]
    wrong: list[str] = []
    started = time.monotonic()
    for number, path in enumerate(sample):
        wrong += check_as(path, config, (ivy_parts[number % len(ivy_parts)],))
    elapsed = time.monotonic() - started
    assert not wrong, "\n".join(wrong)
    print(f"{len(sample)} files in {elapsed:.1f} s")


def _independent_listing() -> tuple[list[Path], list[Path]]:
    """(roots, files named one by one): every ``.py`` below the roots, by ``os.walk``.

    Only ``site-packages`` below the standard library and ``__pycache__`` are left out; the
    files ``ivycheck``'s default excludes would skip (the stdlib's ``venv`` package) are
    named on the command line, where excludes do not apply.
    """
    roots = list(corpus.roots().values())
    everything: list[Path] = []
    for root in roots:
        for directory, subdirs, names in os.walk(root):
            subdirs[:] = [d for d in subdirs if d not in ("site-packages", "__pycache__")]
            everything += [Path(directory, n) for n in names if n.endswith(".py")]
    discovered = {p for name in corpus.roots() for p in corpus.files(name)}
    extra = sorted(p for p in everything if p not in discovered)
    return sorted(everything), extra


def _parses(path: Path) -> bool:
    try:
        text = read_source(path).text
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SourceError, SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


@pytest.mark.slow
def test_whole_corpus_through_the_command(tmp_path: Path) -> None:
    everything, extra = _independent_listing()
    config = tmp_path / "ivycheck.toml"
    # Every file is checked, the largest of the corpus included (the size limit's own
    # IVY000 is tested in test_size_limit).
    config.write_text("[tool.ivycheck]\nrespect-gitignore = false\nmax-file-size = 67108864\n")
    started = time.monotonic()
    done = subprocess.run(
        [
            str(IVYCHECK),
            "--jobs",
            "2",
            "--no-cache",
            "--exit-zero",
            "--format",
            "json",
            "--config",
            str(config),
            *map(str, corpus.roots().values()),
            *map(str, extra),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=3 * 3600,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    found = json.loads(done.stdout)
    crashed = [d for d in found if d["code"] == "IVY999"]
    assert not crashed, crashed[:20]
    summary = done.stderr.strip().splitlines()[-1]
    assert f"({len(everything)} files)" in summary or f"in {len(everything)} files" in summary, (
        summary,
        len(everything),
    )
    listed = {str(p) for p in everything}
    unparsable = {d["filename"] for d in found if d["code"] == "IVY000"}
    assert unparsable <= listed
    # One tree: a file is IVY000 exactly when CPython's parser rejects it.
    expected_unparsable = {str(p) for p in everything if not _parses(p)}
    assert unparsable == expected_unparsable, sorted(unparsable ^ expected_unparsable)[:20]
    print(
        f"{len(everything)} files, {len(found)} diagnostics, {len(unparsable)} IVY000, "
        f"0 IVY999, {elapsed:.0f} s"
    )
