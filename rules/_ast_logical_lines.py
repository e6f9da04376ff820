"""Which statements share a logical line, read from the text CPython's tree points into.

CPython's tree lists statements one by one; the text groups them into lines: ``a = 1;
out = None`` is one line of two statements, ``if c: out = None`` a block on its header's
line. IVY004 gives ``name = None`` its meaning only when it stands on a line of its own
(the reviewed behaviour: a statement sharing its line is read only for whether it binds
the name), and a ``support_native_out`` set in a module-level block counts only when the
block is indented. A backslash continuation joins physical lines into one logical line,
and a backslash at the end of a comment does not: the text alone cannot tell them apart,
so :func:`continued` tokenizes the top-level statement around the line (once per
statement), which happens only where a line before a statement ends with a backslash
(rare), never per call.
"""

from __future__ import annotations

import ast
import io
import threading
import tokenize
import weakref
from collections.abc import Sequence

from ivycheck.rules._ast_source import Lines

_BLANK = " \t\f"


def continued(lines: Lines, tree: ast.Module, number: int) -> bool:
    """Whether physical line ``number`` (1-based) ends with a line continuation, a
    backslash that is not the end of a comment (nor inside a string)."""
    if number < 1 or not lines.lines[number - 1].rstrip("\r\n").endswith("\\"):
        return False
    region = _top_level_around(tree, number)
    with _LOCK:
        known = _SPOKEN_FOR.setdefault(tree, {})
        spoken_for = known.get(region)
    if spoken_for is None:
        spoken_for = _comment_or_string_ends(lines, *region)
        with _LOCK:
            known[region] = spoken_for
    return number not in spoken_for


_SPOKEN_FOR: weakref.WeakKeyDictionary[ast.Module, dict[tuple[int, int], frozenset[int]]] = (
    weakref.WeakKeyDictionary()
)
"""Per tree, per top-level statement (its first and last line), the lines whose end
belongs to a comment or a string: each statement is tokenized once however many lines are
asked about (a function with many backslashes would otherwise be tokenized once per line)."""
_LOCK = threading.Lock()


def _top_level_around(tree: ast.Module, number: int) -> tuple[int, int]:
    """The first line (its decorators included) and the last line of the top-level
    statement around line ``number`` (or the text from the last one starting before it to
    that line)."""
    start, end = 1, number
    for statement in tree.body:
        first = min(
            [statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))]
        )
        if first > number:
            break
        start, end = first, statement.end_lineno or statement.lineno
    return start, max(end, number)


def _comment_or_string_ends(lines: Lines, start: int, end: int) -> frozenset[int]:
    """The lines from ``start`` to ``end`` that end in a comment or inside a string."""
    found: set[int] = set()
    opened: list[int] = []  # the first lines of the f-strings open (3.12 tokenizes them)
    chunk = io.StringIO("".join(lines.lines[start - 1 : end]))
    try:
        for token in tokenize.generate_tokens(chunk.readline):
            first, last = token.start[0] + start - 1, token.end[0] + start - 1
            if token.type == tokenize.COMMENT:
                found.add(first)
            elif token.type == tokenize.STRING:
                found.update(range(first, last))
            elif token.type == _FSTRING_START:
                opened.append(first)
            elif token.type == _FSTRING_END and opened:
                found.update(range(opened.pop(), last))
    except (tokenize.TokenError, SyntaxError):
        pass  # the text ends inside a logical line: its last line continues
    return frozenset(found)


_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)


def indented(lines: Lines, tree: ast.Module, body: Sequence[ast.stmt]) -> bool:
    """Whether ``body`` is an indented block, not statements on its header's line (``if
    c: a = 1``): its first statement starts its physical line, and that line does not
    continue the one before (``if c: \\`` then the statement)."""
    first = body[0]
    before = lines.lines[first.lineno - 1][: lines.column(first.lineno, first.col_offset)]
    return not before.strip(_BLANK) and not continued(lines, tree, first.lineno - 1)


def alone_on_its_line(
    lines: Lines, tree: ast.Module, statement: ast.stmt, previous: ast.stmt | None
) -> bool:
    """Whether ``statement``, which follows ``previous`` in its block (``None``: it comes
    first), is the only statement of its logical line: no ``;`` joins it to a neighbour
    (a trailing ``;`` with nothing after it joins nothing) and it is no block on its
    header's line."""
    if previous is None:
        if not indented(lines, tree, [statement]):
            return False
    else:
        before = lines.lines[statement.lineno - 1]
        column = lines.column(statement.lineno, statement.col_offset)
        if before[:column].strip(_BLANK) or _followed_on_its_line(lines, previous):
            return False
    return not _followed_on_its_line(lines, statement)


def _followed_on_its_line(lines: Lines, statement: ast.stmt) -> bool:
    """Whether another statement follows ``statement`` after a ``;`` on its logical line.
    A compound statement ends its line (its block does)."""
    if statement.end_lineno is None or statement.end_col_offset is None:
        return False
    if isinstance(statement, _COMPOUND):
        return False
    line = statement.end_lineno
    found, line, at = _next_token(lines, line, lines.column(line, statement.end_col_offset))
    if found != ";":
        return False
    found, _, _ = _next_token(lines, line, at + 1)
    return found != ""


_COMPOUND = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
)


def _next_token(lines: Lines, line: int, column: int) -> tuple[str, int, int]:
    """The first character of the next token on the logical line from ``(line, column)``
    (blanks and backslash continuations skipped), with its position; ``""`` when the
    logical line ends first (a line break or a comment). Called between statements, where
    no string can start before the next token."""
    while True:
        text = lines.lines[line - 1]
        at = column
        while at < len(text) and text[at] in _BLANK:
            at += 1
        rest = text[at:]
        if rest[:1] == "\\" and not rest[1:].strip("\r\n") and line < len(lines.lines):
            line, column = line + 1, 0
            continue
        char = rest[:1]
        return ("" if char in ("", "\r", "\n", "#") else char), line, at
