"""CPython's AST of a text, parsed once even when two phases ask for it.

On every keystroke the language server summarizes the buffer for the project index and
then splits the same text into top-level chunks; both need ``ast.parse`` of it, which is
a third of a keystroke's cost on a 2,000-line file. The last text's tree is kept (up to
``CACHE_LIMIT`` characters). A multi-megabyte buffer's tree is hundreds of MB: the language
server calls :func:`forget` once such a keystroke is done, so only the parse pays for it.
Callers must not mutate the tree.

The command, checking on one core, summarizes every file before it checks the ones whose
findings need the index; it keeps those files' trees (:func:`keep`, up to ``KEEP_LIMIT``
characters of text in all) so that their check does not parse them again, and
:func:`release` drops whatever no check took.
"""

from __future__ import annotations

import ast
import threading

CACHE_LIMIT = 16_000_000
KEEP_LIMIT = 3_000_000
"""Characters of text whose trees :func:`keep` holds at once: about 75 MB of trees (25
bytes of tree per character), the price of not parsing those files twice."""

_lock = threading.Lock()
_last: tuple[str, ast.Module] | None = None
_kept: dict[str, ast.Module] = {}
_kept_size = 0


def parse(source: str | bytes) -> ast.Module:
    """``ast.parse(source)``, shared with the previous caller of the same text."""
    global _last
    if not isinstance(source, str) or len(source) > CACHE_LIMIT:
        return ast.parse(source)
    with _lock:
        last = _last
        kept = _take_kept(source) if _kept else None
        if kept is not None:
            _last = (source, kept)
    if kept is not None:
        return kept
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


def keep(source: str, tree: ast.Module) -> bool:
    """Hold ``tree`` until :func:`parse` is asked for the same text again (once), unless
    that would hold more than ``KEEP_LIMIT`` characters' trees; whether it is held."""
    global _kept_size
    with _lock:
        if source in _kept or _kept_size + len(source) > KEEP_LIMIT:
            return False
        _kept[source] = tree
        _kept_size += len(source)
        return True


def release() -> None:
    """Drop every tree :func:`keep` holds (the files were checked, or will not be)."""
    global _kept_size
    with _lock:
        _kept.clear()
        _kept_size = 0


def _take_kept(source: str) -> ast.Module | None:
    """The held tree of ``source``, no longer held (the caller holds ``_lock``)."""
    global _kept_size
    tree = _kept.pop(source, None)
    if tree is not None:
        _kept_size -= len(source)
    return tree
