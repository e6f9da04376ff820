"""CPython's AST of a text, parsed once even when two phases ask for it.

On every keystroke the language server summarizes the buffer for the project index and
then splits the same text into top-level chunks; both need ``ast.parse`` of it, which is
a third of a keystroke's cost on a 2,000-line file. The last text's tree is kept (up to
``CACHE_LIMIT`` characters). A multi-megabyte buffer's tree is hundreds of MB: the language
server calls :func:`forget` once such a keystroke is done, so only the parse pays for it.
Callers must not mutate the tree.
"""

from __future__ import annotations

import ast
import threading

CACHE_LIMIT = 16_000_000

_lock = threading.Lock()
_last: tuple[str, ast.Module] | None = None


def parse(source: str | bytes) -> ast.Module:
    """``ast.parse(source)``, shared with the previous caller of the same text."""
    global _last
    if not isinstance(source, str) or len(source) > CACHE_LIMIT:
        return ast.parse(source)
    with _lock:
        last = _last
    if last is not None and (last[0] is source or last[0] == source):
        return last[1]
    tree = ast.parse(source)
    with _lock:
        _last = (source, tree)
    return tree


def forget(source: str | None = None) -> None:
    """Drop the kept tree (a large buffer's tree should not outlive its keystroke); given
    ``source``, only if it is that text's (another thread's buffer keeps its tree)."""
    global _last
    with _lock:
        if source is None or (_last is not None and _last[0] is source):
            _last = None
