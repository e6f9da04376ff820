"""``GlobSet`` answers what ``pathspec.GitIgnoreSpec`` answers, in linear time.

pathspec stays a test dependency for this: its answers are the specification (git's
``.gitignore`` semantics, with the edge cases pathspec replicates), over patterns and paths
built from the characters that matter (``*``, ``**``, ``?``, bracket expressions, ``!``,
``\\``, ``/``, spaces, ``#``).
"""

from __future__ import annotations

import re
import warnings

import pathspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ivycheck.checker.project.globs import GlobError, GlobSet

PATTERN_PIECES = [
    *"ab.*?/!\\[]-^ #",
    "**",
    "**/",
    "/**",
    "[!a]",
    "[a-c]",
    "[^/]",
    "[]a]",
    "[z-a]",
    "\\ ",
    "\t",
    "é",
]
PATH_PIECES = [*"ab./[]* -!\\", "c", "é", "\t", "aa", "/a/", "./", "a.py", "b/"]

patterns = st.lists(
    st.lists(st.sampled_from(PATTERN_PIECES), max_size=8).map("".join), min_size=1, max_size=4
)
paths = st.lists(st.lists(st.sampled_from(PATH_PIECES), max_size=12).map("".join), max_size=8)


def _reference(lines: list[str]) -> pathspec.GitIgnoreSpec | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # re's "possible nested set" on '[[' in a class
        try:
            return pathspec.GitIgnoreSpec.from_lines(lines)
        except (ValueError, re.error):
            return None


def _ours(lines: list[str]) -> GlobSet | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return GlobSet.from_lines(lines)
        except GlobError:
            return None


@settings(max_examples=600, deadline=None)
@given(patterns, paths)
def test_the_same_answers_and_the_same_refusals_as_pathspec(
    lines: list[str], candidates: list[str]
) -> None:
    _compare(lines, candidates)


@pytest.mark.slow
@settings(max_examples=50_000, deadline=None)
@given(patterns, paths)
def test_the_same_answers_as_pathspec_exhaustively(lines: list[str], candidates: list[str]) -> None:
    _compare(lines, candidates)


def _compare(lines: list[str], candidates: list[str]) -> None:
    reference, ours = _reference(lines), _ours(lines)
    assert (reference is None) == (ours is None), lines
    if reference is None or ours is None:
        return
    alone = [_reference([line]) for line in lines]
    for path in candidates:
        assert ours.match_file(path) == reference.match_file(path), (lines, path)
        expected = [spec is not None and spec.match_file(path) for spec in alone]
        assert ours.alone_matches(path) == expected, (lines, path)


@pytest.mark.parametrize(
    ("lines", "path", "expected"),
    [
        (["build/"], "build", False),  # a folder pattern does not match a file
        (["build/"], "build/", True),
        (["build/"], "src/build/x.py", True),
        (["/build"], "src/build", False),  # anchored
        (["doc/*.txt"], "doc/a/b.txt", False),
        (["doc/**/*.txt"], "doc/a/b.txt", True),
        (["*.py", "!keep.py"], "a/keep.py", False),  # the last match wins
        (["!keep.py", "*.py"], "a/keep.py", True),
        # A file match outranks a later pattern matching only a folder above the file:
        (["a/b", "!a/"], "a/b", True),
        (["a/", "!a/b"], "a/b", False),
        (["a[!x]b"], "a/b", True),  # a negated class is a regex class: it matches '/'
        (["\\#x", "\\!y"], "#x", True),
        (["foo\\ "], "foo ", True),
        (["[z"], "[z", False),  # an unclosed '[': the pattern is dropped
    ],
)
def test_gitignore_semantics_kept(lines: list[str], path: str, expected: bool) -> None:
    assert GlobSet.from_lines(lines).match_file(path) is expected
    reference = pathspec.GitIgnoreSpec.from_lines(lines)
    assert reference.match_file(path) is expected


@pytest.mark.parametrize("line", ["foo\\", "!", "[z-a]"])
def test_a_pattern_pathspec_refuses_is_refused_and_skipped_in_a_gitignore(line: str) -> None:
    with pytest.raises(GlobError):
        GlobSet.from_lines([line])
    assert GlobSet.from_lines([line, "x"], skip_invalid=True).match_file("x")


def test_a_hostile_pattern_gets_its_answer() -> None:
    """``a*`` twenty times then ``b``: pathspec's regex backtracks for minutes on a name of
    60 characters (the benchmark times ours: benchmarks/glob_matching.py)."""
    hostile = GlobSet.from_lines(["a*" * 20 + "b", "**/" + "*a" * 30 + "/**/b"])
    assert not hostile.match_file("a" * 60)
    assert hostile.match_file("a" * 59 + "b")
    assert hostile.match_file("x/" + "a" * 4000 + "b")
    assert not hostile.match_file("a" * 29 + "/x/b")
    assert hostile.match_file("a" * 30 + "/x/y/b")


def test_many_patterns_each_decide_for_their_own_paths() -> None:
    lines = [f"dir_{n}/" for n in range(0, 20_000, 2)] + [f"*.ext_{n}" for n in range(1, 20_000, 2)]
    spec = GlobSet.from_lines(lines)
    assert spec.match_file("a/dir_19998/x.py")
    assert not spec.match_file("a/dir_19999/x.py")
    assert spec.match_file("deep/er/file.ext_19999")
    assert not spec.match_file("deep/er/file.ext_19998")
