"""A file's comments, tokenized once: ``# noqa`` and ``# ivycheck: skip-file`` as flake8
reads them, and where a comment may be written.

A bare ``# noqa`` silences every code on its line; ``# noqa: IVY005,IVY006`` only those
codes (separated by commas and/or spaces; a code matches by prefix as in flake8). Only
real comments count: the text ``# noqa`` inside a string does not suppress anything, which
is why comments are what ``tokenize`` finds rather than a regular expression per line
(found by ``noqa.scanner``, a model of ``tokenize`` ten times as fast, or by ``tokenize``
itself where the model stops).

Three readers need the same comments: the engine (which findings a ``# noqa`` silences),
IVY100 (which directives silenced nothing) and ``--add-noqa``/the IVY100 fix (where a
directive can be appended or edited). :func:`comments_of` scans a text once and keeps
the last text's result, so a file is scanned once however many of them ask.

Editing needs one more fact: whether a comment may be appended to a line at all. A line
that ends inside a triple-quoted string or with a backslash continuation cannot take one
(the text would become part of the string, or a syntax error); a line that ends in a
NEWLINE or NL token (inside brackets too) can. A file that does not tokenize still gets its
suppressions, read per line, but is never edited (:func:`comment_map` is ``None``).
"""

from __future__ import annotations

import io
import re
import threading
import tokenize
from dataclasses import dataclass

from ivycheck.checker.noqa.scanner import scan_comments

NOQA_RE = re.compile(
    r"#\s*noqa(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
SKIP_FILE_RE = re.compile(r"#\s*ivycheck\s*:\s*skip-file\b", re.IGNORECASE)
_CODE_RE = re.compile(r"[A-Z]+[0-9]+", re.IGNORECASE)


@dataclass(frozen=True)
class LineComment:
    """A comment token: 1-based line, 0-based code-point column of its ``#``, its text."""

    line: int
    col: int
    text: str


@dataclass(frozen=True)
class FileComments:
    """Every comment of a text by line, and the lines that may take one.

    ``tokenized`` is false for a text ``tokenize`` refuses: ``comments`` then holds each
    line's text from its first ``#`` (what may be a comment), ``open_lines`` is empty."""

    comments: dict[int, LineComment]
    open_lines: frozenset[int]
    """Lines whose end is a token boundary where a comment may be appended."""
    tokenized: bool

    def directive(self, line: int) -> NoqaDirective | None:
        comment = self.comments.get(line)
        return directive_in(comment) if comment is not None else None


CommentMap = FileComments
"""What the editors of ``# noqa`` read: the comments of a text that tokenizes."""

_lock = threading.Lock()
_last: tuple[str, FileComments] | None = None


def comments_of(source: str) -> FileComments:
    """The comments of ``source``, shared with the previous caller of the same text."""
    global _last
    with _lock:
        last = _last
    if last is not None and (last[0] is source or last[0] == source):
        return last[1]
    found = _find(source)
    with _lock:
        _last = (source, found)
    return found


def _find(source: str) -> FileComments:
    """What :func:`_tokenize` gives, from the regex scanner where it answers (it models
    ``tokenize`` and says so when a text is beyond the model), else from ``tokenize``."""
    scanned = scan_comments(source)
    if scanned is None:
        return _tokenize(source)
    found, open_lines = scanned
    comments = {line: LineComment(line, col, text) for line, (col, text) in found.items()}
    return FileComments(comments, frozenset(open_lines), tokenized=True)


def _tokenize(source: str) -> FileComments:
    """The reference: ``tokenize``'s COMMENT, NEWLINE and NL tokens, or, when it raises,
    each line's text from its first ``#``."""
    comments: dict[int, LineComment] = {}
    open_lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = LineComment(token.start[0], token.start[1], token.string)
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                open_lines.add(token.start[0])
    except (tokenize.TokenError, SyntaxError, ValueError):
        by_line: dict[int, LineComment] = {}
        for number, line in enumerate(source.splitlines(), start=1):
            if "#" in line:
                col = line.index("#")
                by_line[number] = LineComment(number, col, line[col:])
        return FileComments(by_line, frozenset(), tokenized=False)
    return FileComments(comments, frozenset(open_lines), tokenized=True)


def comment_map(source: str) -> CommentMap | None:
    """The comments and comment-taking lines of ``source``; ``None`` if it does not tokenize."""
    found = comments_of(source)
    return found if found.tokenized else None


@dataclass(frozen=True)
class Noqa:
    """The suppression on one line; ``codes`` is ``None`` for a bare ``# noqa``."""

    codes: frozenset[str] | None

    def suppresses(self, code: str) -> bool:
        return self.codes is None or any(code.startswith(c) for c in self.codes)


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
    return any(SKIP_FILE_RE.search(c.text) for c in comments_of(source).comments.values())


class Suppressions:
    """The ``# noqa`` comments of one file, by line; built only for files with findings."""

    def __init__(self, source: str) -> None:
        self.by_line: dict[int, Noqa] = {}
        if NOQA_RE.search(source) is None:
            return
        for line, comment in comments_of(source).comments.items():
            noqa = parse_noqa(comment.text)
            if noqa is not None:
                self.by_line[line] = noqa

    def suppresses(self, line: int, code: str) -> bool:
        noqa = self.by_line.get(line)
        return noqa is not None and noqa.suppresses(code)


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
