"""``--watch``: check again whenever a file the run depends on changes (``ruff check --watch``).

Polling, not an operating-system notification API: the standard library has none, and a
stat of every watched file twice a second is a few milliseconds for a tree the size of
Ivy's, with no dependency and the same behaviour on every platform and file system
(network mounts and containers' bind mounts included, where notifications are lost).

What is watched: every ``*.py`` file under the given paths (a file added, removed,
edited or touched), the configuration files there and in every folder above them (a
changed ``pyproject.toml`` changes the findings), and ``.gitignore`` files. Folders the
checker never enters by default (``.git``, virtual environments, caches) are not walked.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NoReturn

from ivycheck.checker.base.file_stamp import FileStamp, file_stamp, stamp_of
from ivycheck.checker.project.config import CONFIG_FILE_NAMES, DEFAULT_EXCLUDE

INTERVAL = 0.5
"""Seconds between two looks at the files."""
SETTLE = 0.1
"""Seconds the files must stay as they are after a change before the check starts: an
editor's save (or ``git checkout``) is several writes, and a check of a file caught
between two of them (truncated, half written) would report what nobody wrote."""

_SKIPPED_FOLDERS = frozenset(
    pattern.rstrip("/") for pattern in DEFAULT_EXCLUDE if not any(c in pattern for c in "*?[")
)
_WATCHED_NAMES = frozenset((*CONFIG_FILE_NAMES, ".gitignore"))

Snapshot = dict[str, FileStamp]
"""Path -> (modification time in ns, size, inode) of every watched file that exists: a
file replaced by a rename (as many editors save) is a change even within one tick of the
file system's clock."""


def snapshot(paths: Sequence[Path]) -> Snapshot:
    """The state of every watched file for ``paths`` (see the module's docstring)."""
    found: Snapshot = {}
    for path in paths:
        absolute = Path(os.path.abspath(path))
        if absolute.is_dir():
            _walk(str(absolute), found)
        else:
            _stat_into(str(absolute), found)
        folder = absolute if absolute.is_dir() else absolute.parent
        for ancestor in (folder, *folder.parents):
            for name in CONFIG_FILE_NAMES:
                _stat_into(str(ancestor / name), found)
    return found


def _walk(folder: str, found: Snapshot) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in _SKIPPED_FOLDERS:
                    _walk(entry.path, found)
            elif entry.name.endswith(".py") or entry.name in _WATCHED_NAMES:
                found[entry.path] = stamp_of(entry.stat())
        except OSError:
            continue


def _stat_into(path: str, found: Snapshot) -> None:
    stamp = file_stamp(path)
    if stamp is not None:
        found[path] = stamp


def changed(before: Snapshot, after: Snapshot) -> list[str]:
    """The files added, removed or modified between two snapshots, sorted."""
    return sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )


def watch(
    paths: Sequence[Path],
    check: Callable[[], object],
    announce: Callable[[Iterable[str]], None],
    interval: float = INTERVAL,
) -> NoReturn:
    """Run ``check``, then again after each change, until interrupted (Ctrl-C raises
    ``KeyboardInterrupt`` out of here). ``announce`` is told the changed files before each
    new check. The state is taken before each check, so an edit saved while it runs
    (or a fix it writes) is seen by the next look."""
    state = snapshot(paths)
    check()
    while True:
        time.sleep(interval)
        current = snapshot(paths)
        if current == state:
            continue
        settled = _settled(paths, current)
        difference = changed(state, settled)
        state = settled
        if difference:
            announce(difference)
            check()


def _settled(paths: Sequence[Path], state: Snapshot) -> Snapshot:
    """The state of the files once it has not changed for :data:`SETTLE` seconds."""
    while True:
        time.sleep(SETTLE)
        later = snapshot(paths)
        if later == state:
            return state
        state = later
