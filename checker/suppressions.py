"""``# noqa`` and ``# ivycheck: skip-file``, with flake8's semantics.

A bare ``# noqa`` silences every code on its line; ``# noqa: IVY005,IVY006`` only those
codes (separated by commas and/or spaces; a code matches by prefix as in flake8). Only
real comments count: the text ``# noqa`` inside a string does not suppress anything, which
is why comments are found with ``tokenize`` rather than a regular expression per line.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass

NOQA_RE = re.compile(
    r"#\s*noqa(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
SKIP_FILE_RE = re.compile(r"#\s*ivycheck\s*:\s*skip-file\b", re.IGNORECASE)
_CODE_RE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


@dataclass(frozen=True)
class Noqa:
    """The suppression on one line; ``codes`` is ``None`` for a bare ``# noqa``."""

    codes: frozenset[str] | None

    def suppresses(self, code: str) -> bool:
        return self.codes is None or any(code.startswith(c) for c in self.codes)


def _comments(source: str) -> Iterable[tuple[int, str]]:
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.string
    except (tokenize.TokenError, SyntaxError, ValueError):
        # A file that does not tokenize still gets its suppressions, read per line.
        for number, line in enumerate(source.splitlines(), start=1):
            if "#" in line:
                yield number, line[line.index("#") :]


def parse_noqa(comment: str) -> Noqa | None:
    match = NOQA_RE.search(comment)
    if match is None:
        return None
    codes = match.group("codes")
    if codes is None:
        return Noqa(None)
    return Noqa(frozenset(c.upper() for c in _CODE_RE.findall(codes)))


def skips_file(source: str) -> bool:
    """``# ivycheck: skip-file`` in a real comment (the regex first: tokenizing is slow)."""
    if SKIP_FILE_RE.search(source) is None:
        return False
    return any(SKIP_FILE_RE.search(comment) for _, comment in _comments(source))


class Suppressions:
    """The ``# noqa`` comments of one file, by line; built only for files with findings."""

    def __init__(self, source: str) -> None:
        self.by_line: dict[int, Noqa] = {}
        if NOQA_RE.search(source) is None:
            return
        for line, comment in _comments(source):
            noqa = parse_noqa(comment)
            if noqa is not None:
                self.by_line[line] = noqa

    def suppresses(self, line: int, code: str) -> bool:
        noqa = self.by_line.get(line)
        return noqa is not None and noqa.suppresses(code)
