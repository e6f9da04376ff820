"""CPython's tree of a text: parsed by whoever holds the text, handed on explicitly.

There is no process-wide parse cache: a :class:`~ivycheck.checker.core.rule.FileUnderCheck`
carries its own tree (parsed on first use, or handed over by whoever parsed the text
already), and a run that summarizes files before it checks them keeps the trees it will
check again in its own :class:`KeptTrees`. So what a tree belongs to, and when it is
freed, is visible where it is used.
"""

from __future__ import annotations

import ast
import warnings

PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)
"""What CPython's parser raises on text it cannot read (MemoryError: nesting too deep for
its stack)."""


def parse(source: str | bytes) -> ast.Module:
    """``ast.parse(source)`` without the ``SyntaxWarning``s a file's odd escapes raise:
    a checker reports findings, not the interpreter's warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source)


def parse_or_none(source: str | bytes) -> ast.Module | None:
    """:func:`parse`, or ``None`` for a text CPython cannot read."""
    try:
        return parse(source)
    except PARSE_ERRORS:
        return None


class KeptTrees:
    """Trees of files a run summarized and will check later in the same process, up to
    ``limit`` characters of text in all (about 25 bytes of tree per character: the price
    of not parsing those files twice is bounded). Each tree is handed out once."""

    def __init__(self, limit: int = 3_000_000) -> None:
        self.limit = limit
        self._trees: dict[str, ast.Module] = {}
        self._size = 0

    def keep(self, source: str, tree: ast.Module) -> bool:
        """Hold ``tree`` for ``source`` unless that would exceed the limit; whether held."""
        if source in self._trees or self._size + len(source) > self.limit:
            return False
        self._trees[source] = tree
        self._size += len(source)
        return True

    def take(self, source: str) -> ast.Module | None:
        """The tree held for ``source``, no longer held."""
        tree = self._trees.pop(source, None)
        if tree is not None:
            self._size -= len(source)
        return tree

    def clear(self) -> None:
        self._trees.clear()
        self._size = 0
