"""A buffer's tree after an edit, parsing only the top-level statements the edit touched.

A keystroke changes a few characters of one function, yet ``ast.parse`` of a 2,000-line
module costs 12-14 ms, a third of the server's work per edit
(``benchmarks/lsp_latency.py --stages``). So the server keeps each open document's last
text and tree, and :func:`parse_edited` parses only the text between the last top-level
statement before the edit and the first one after it, padded with newlines so that
CPython gives every node its line in the whole file; the untouched statements are the
previous tree's nodes, shared (no rule or summary mutates a tree: see
``rules/_ast_facts.facts``). The result is the tree ``ast.parse`` gives the whole text,
node for node with every position (``tests/lsp/test_reparse.py`` compares the two
on edits of the Ivy snapshot's files).

Why splicing is sound. CPython's tokenizer starts every top-level statement that begins
its own line at column 0 in the same state (no open bracket, string or continuation,
empty indentation stack): what comes before it cannot change how it reads, and what a
statement is ends where the next one begins. So a statement before the edit is reused
only when the statement after it also lies wholly before the edit (its end is then fixed
by unchanged text), and one after the edit only when it begins its own line there. The
text in between is parsed on its own: if that fails, or the edit may change what the
parser accepts elsewhere (``from __future__`` imports), or lines end in ``\\r``
(positions counted differently), the whole text is parsed, which also gives a syntax
error its exact message and position. An edit that adds or removes lines moves every
statement after it: those are parsed again too (moving them would walk their nodes in
Python, slower than CPython parses them).
"""

from __future__ import annotations

import ast
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate

from ivycheck.checker.base import trees
from ivycheck.rules._ast_facts import follow_statements


@dataclass(frozen=True)
class ParsedText:
    """A text and its tree (``None`` if CPython rejected it)."""

    text: str
    tree: ast.Module | None
    _line_starts: list[int] = field(default_factory=list, repr=False, compare=False)

    def line_start(self, line: int) -> int:
        """The offset of 1-based ``line`` in :attr:`text` (its length past the last line)."""
        if not self._line_starts:
            lengths = (len(part) + 1 for part in self.text.split("\n"))
            self._line_starts.extend(accumulate(lengths, initial=0))
        starts = self._line_starts
        return starts[line - 1] if line <= len(starts) - 1 else len(self.text)


def parse_text(text: str, previous: ParsedText | None = None) -> ParsedText:
    """``text`` and its tree, reusing ``previous`` (the same document's last text) where
    the edit between them allows (see the module doc); the tree is ``None`` when CPython
    rejects the text. The rules' facts of the statements the new tree shares with
    ``previous``'s go over to it (:func:`~ivycheck.rules._ast_facts.follow_statements`):
    a keystroke then costs the rules in proportion to what it changed."""
    tree = _spliced(previous, text) if previous is not None else None
    if tree is None:
        tree = trees.parse_or_none(text)
    if tree is not None:
        follow_statements(tree, previous.tree if previous is not None else None)
    return ParsedText(text, tree)


def _spliced(previous: ParsedText, text: str) -> ast.Module | None:
    """The tree of ``text`` from ``previous``'s and a parse of the edited statements;
    ``None`` when it must be parsed whole."""
    old_tree, old = previous.tree, previous.text
    if old_tree is None or not old_tree.body or "\r" in text or "\r" in old:
        return None
    if text == old:
        return old_tree
    head = _common_prefix(old, text)
    tail = _common_suffix(old, text, limit=min(len(old), len(text)) - head)
    if "__future__" in old[head : len(old) - tail] + text[head : len(text) - tail]:
        return None
    first_changed = old.count("\n", 0, head) + 1
    last_changed = old.count("\n", 0, len(old) - tail) + 1
    shift = text.count("\n") - old.count("\n")
    body = old_tree.body
    spans = [(_first_line(s), s.end_lineno or s.lineno) for s in body]
    # Statements before the edit: each one followed by a statement that is too.
    kept_before = max(0, bisect_right([first for first, _ in spans], first_changed - 1) - 1)
    while kept_before and spans[kept_before - 1][1] >= spans[kept_before][0]:
        kept_before -= 1  # ``a; b``: a line is parsed whole
    # Statements after the edit, each beginning its own line (not after a ``;``).
    kept_after = len(body)
    if shift == 0:
        while (
            kept_after - 1 > kept_before
            and spans[kept_after - 1][0] > last_changed
            and spans[kept_after - 2][1] < spans[kept_after - 1][0]
        ):
            kept_after -= 1
    # From line 1 when no statement is kept: the edit may be above the first one.
    start_line = spans[kept_before][0] if kept_before else 1
    start = previous.line_start(start_line)
    end = (
        len(text) - (len(old) - previous.line_start(spans[kept_after][0]))
        if kept_after < len(body)
        else len(text)
    )
    try:
        middle = trees.parse("\n" * (start_line - 1) + text[start:end])
    except trees.PARSE_ERRORS:
        return None
    return ast.Module(body=[*body[:kept_before], *middle.body, *body[kept_after:]], type_ignores=[])


def _first_line(statement: ast.stmt) -> int:
    """Where a statement's text begins: its first decorator's line, if any."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix (binary search over C-level compares)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    """The length of the longest common suffix, at most ``limit``."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low
