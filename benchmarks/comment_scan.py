"""The regex comment scanner against ``tokenize``, on every ``.py`` file of folders; by hand.

    .venv/bin/python benchmarks/comment_scan.py DIR [DIR ...] [--rounds 5]

First every file's ``FileComments`` from the scanner path (``noqa.comments._find``) is
compared with the one from ``tokenize`` (``noqa.comments._tokenize``); any difference is
printed and makes the exit status 1. Files are read as the checker reads them
(``decode_source``); files it cannot decode are counted and skipped. Then both are timed
on all files and on the files that mention ``noqa`` (the ones the checker asks about),
alternating which side runs first in each round, one process, CPU time; the medians and
the ratio of medians are printed with the load average.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from measure import load_average, python_files

from ivycheck.checker.base.sourcefile import SourceError, decode_source
from ivycheck.checker.noqa.comments import FileComments, _find, _tokenize
from ivycheck.checker.noqa.scanner import scan_comments


def _read(paths: Sequence[Path]) -> tuple[list[tuple[Path, str]], int]:
    texts: list[tuple[Path, str]] = []
    skipped = 0
    for path in paths:
        try:
            texts.append((path, decode_source(path.read_bytes()).text))
        except (OSError, SourceError):
            skipped += 1
    return texts, skipped


def _time(find: Callable[[str], FileComments], texts: Sequence[str]) -> float:
    start = time.process_time()
    for text in texts:
        find(text)
    return time.process_time() - start


def _compare(texts: Sequence[tuple[Path, str]]) -> int:
    differences = 0
    for path, text in texts:
        if _find(text) != _tokenize(text):
            differences += 1
            print(f"DIFFERENT: {path}")
    return differences


def _timings(label: str, texts: Sequence[str], rounds: int) -> None:
    scanner: list[float] = []
    reference: list[float] = []
    for number in range(rounds):
        if number % 2 == 0:
            scanner.append(_time(_find, texts))
            reference.append(_time(_tokenize, texts))
        else:
            reference.append(_time(_tokenize, texts))
            scanner.append(_time(_find, texts))
    new, old = statistics.median(scanner), statistics.median(reference)
    print(
        f"  {label}: {len(texts)} files, tokenize {old * 1000:.1f} ms, "
        f"scanner {new * 1000:.1f} ms, tokenize / scanner {old / new:.1f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", type=Path, nargs="+")
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    failed = 0
    for root in options.roots:
        texts, skipped = _read(python_files(root))
        declined = sum(1 for _, text in texts if scan_comments(text) is None)
        refused = sum(1 for _, text in texts if not _tokenize(text).tokenized)
        print(
            f"{root}: {len(texts)} files ({skipped} not decoded), "
            f"{declined} left to tokenize by the scanner ({refused} tokenize refuses)"
        )
        differences = _compare(texts)
        failed += differences
        print(f"  differences: {differences}")
        every = [text for _, text in texts]
        _timings("all files", every, options.rounds)
        _timings("files mentioning noqa", [t for t in every if "noqa" in t], options.rounds)
    print(f"load average: {load_average()}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
