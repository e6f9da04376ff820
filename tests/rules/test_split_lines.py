"""A file's lines as CPython counts them (``rules/_ast_source.split_lines``): ``\\n``,
``\\r\\n`` and ``\\r`` end a line, and nothing else does (``str.splitlines`` also breaks at
``\\f``, ``\\v``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``, which the fast
path must not)."""

from __future__ import annotations

import ast
import random

import pytest

from ivycheck.rules._ast_source import split_lines

PIECES = ["a", "b", " ", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "é", "#"]


def _cpython_lines(text: str) -> list[str]:
    """The lines CPython numbers: each physical line with its end, read by hand."""
    lines, start, at = [], 0, 0
    while at < len(text):
        if text[at] == "\r":
            end = at + 2 if text.startswith("\r\n", at) else at + 1
        elif text[at] == "\n":
            end = at + 1
        else:
            at += 1
            continue
        lines.append(text[start:end])
        start = at = end
    if start < len(text):
        lines.append(text[start:])
    return lines


def test_lines_end_only_at_line_breaks_cpython_counts() -> None:
    chosen = random.Random(37)
    for _ in range(20_000):
        text = "".join(chosen.choice(PIECES) for _ in range(chosen.randint(0, 14)))
        assert split_lines(text) == _cpython_lines(text), repr(text)


@pytest.mark.parametrize("odd", ["\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u2029"])
def test_a_form_feed_or_unicode_break_does_not_end_a_line(odd: str) -> None:
    text = f"x = 1  # a{odd}b\ny = 2\n"
    tree = ast.parse(text)
    lines = split_lines(text)
    assert len(lines) == 2
    assert lines[tree.body[1].lineno - 1] == "y = 2\n"
