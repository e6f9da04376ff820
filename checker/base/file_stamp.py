"""What says a file changed without reading it: its modification time, size and inode.

An edit changes the modification time (and mostly the size); a tool that writes a new file
and renames it into place (an upgrade, many editors' saves) changes the inode even where
the time and size come out the same. A change that keeps all three is not seen: the
result cache makes the same bet with its key."""

from __future__ import annotations

import os

FileStamp = tuple[int, int, int]
"""A file's ``st_mtime_ns``, ``st_size`` and ``st_ino``."""


def stamp_of(found: os.stat_result) -> FileStamp:
    """The stamp of a ``stat`` already taken."""
    return (found.st_mtime_ns, found.st_size, found.st_ino)


def file_stamp(path: str | os.PathLike[str]) -> FileStamp | None:
    """The stamp of the file at ``path`` (links followed), ``None`` where there is none."""
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None
