"""Where a file's comments are, and which lines can take one, for editing ``# noqa``.

:mod:`ivycheck.checker.suppressions` reads a ``# noqa`` on the line a finding starts on,
from real comments only (found with ``tokenize``). Editing them (``--add-noqa``, the
IVY100 fix) needs the same view plus one more fact: whether a comment may be appended to
a line at all. A line that ends inside a triple-quoted string or with a backslash
continuation cannot take one (the text would become part of the string, or a syntax
error); a line that ends in a NEWLINE or NL token (inside brackets too) can.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

from ivycheck.checker.suppressions import NOQA_RE

_CODE_RE = re.compile(r"[A-Za-z]+[0-9]+")


@dataclass(frozen=True)
class LineComment:
    """A comment token: 1-based line, 0-based code-point column of its ``#``, its text."""

    line: int
    col: int
    text: str


@dataclass(frozen=True)
class NoqaDirective:
    """The ``# noqa`` inside a comment; ``codes`` empty and ``bare`` for a bare one.

    Offsets are 0-based code-point columns in the line: the directive's ``#`` at
    ``start``, the codes' text between ``codes_start`` and ``codes_end`` (both equal to
    ``end`` when bare), the directive ending at ``end``."""

    comment: LineComment
    start: int
    end: int
    codes_start: int
    codes_end: int
    codes: tuple[str, ...]

    @property
    def bare(self) -> bool:
        return not self.codes


@dataclass(frozen=True)
class CommentMap:
    comments: dict[int, LineComment]
    open_lines: frozenset[int]
    """Lines whose end is a token boundary where a comment may be appended."""

    def directive(self, line: int) -> NoqaDirective | None:
        comment = self.comments.get(line)
        return directive_in(comment) if comment is not None else None


def directive_in(comment: LineComment) -> NoqaDirective | None:
    match = NOQA_RE.search(comment.text)
    if match is None:
        return None
    base = comment.col
    if match.group("codes") is None:
        end = base + match.end()
        return NoqaDirective(comment, base + match.start(), end, end, end, ())
    codes = tuple(c.upper() for c in _CODE_RE.findall(match.group("codes")))
    return NoqaDirective(
        comment,
        base + match.start(),
        base + match.end(),
        base + match.start("codes"),
        base + match.end("codes"),
        codes,
    )


def comment_map(source: str) -> CommentMap | None:
    """The comments and comment-taking lines of ``source``; ``None`` if it does not tokenize."""
    comments: dict[int, LineComment] = {}
    open_lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = LineComment(token.start[0], token.start[1], token.string)
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                open_lines.add(token.start[0])
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return CommentMap(comments, frozenset(open_lines))


def split_lines(source: str) -> list[str]:
    """Lines as ``tokenize`` and the engine count them: split at ``\\n`` only, kept."""
    lines = source.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def body_and_ending(line: str) -> tuple[str, str]:
    """A physical line without, and its, line ending (``\\r\\n``, ``\\n`` or none)."""
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith("\n"):
        return line[:-1], "\n"
    return line, ""
