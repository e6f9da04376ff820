"""Whether git tracks anything in a folder, read from the repository's index file.

A cache folder that git tracks came with the repository: its content is someone else's,
and rewriting it would show up in every ``git status``. The answer is read from
``.git/index`` itself rather than by running ``git``: a repository's own configuration
can make ``git`` run a command (``core.fsmonitor``), and a run must start no program a
repository chose. The reader is bounded (sizes and counts checked against the file) and
answers ``False`` for an index it does not understand: a tracked cache is still only
data, and the per-user key still rejects whatever it holds.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_INDEX_BYTES = 1 << 30
_FIXED = 40  # ctime, mtime, dev, ino, mode, uid, gid, size: 32-bit each but the times 64
_FLAGS = 2


def tracks(folder: Path) -> bool:
    """Whether the index of the git work tree around ``folder`` lists a file in it (or
    the folder itself, as a submodule or a sparse-index directory entry)."""
    found = _work_tree(folder.parent)
    if found is None:
        return False
    top, git_dir = found
    try:
        relative = os.path.relpath(folder, top).replace(os.sep, "/")
    except ValueError:
        return False
    if relative.startswith(".."):
        return False
    try:
        with open(git_dir / "index", "rb") as handle:
            data = handle.read(MAX_INDEX_BYTES + 1)
    except OSError:
        return False
    if len(data) > MAX_INDEX_BYTES:
        return False
    if data[4:8] in (b"\0\0\0\2", b"\0\0\0\3") and relative.encode() not in data:
        return False  # versions 2 and 3 hold every path whole: no need to walk them
    try:
        return any(
            name == relative.encode() or name.startswith(relative.encode() + b"/")
            for name in _names(data, _hash_size(git_dir))
        )
    except (ValueError, IndexError):
        return False


def _work_tree(start: Path) -> tuple[Path, Path] | None:
    """The nearest folder at or above ``start`` with a ``.git`` (a folder, or a file
    ``gitdir: PATH`` as in a worktree or submodule), and its git directory."""
    for folder in (start, *start.parents):
        marker = folder / ".git"
        if marker.is_dir():
            return folder, marker
        if marker.is_file():
            try:
                line = marker.read_text(encoding="utf-8", errors="replace")[:4096]
            except OSError:
                return None
            if line.startswith("gitdir:"):
                return folder, folder / line.removeprefix("gitdir:").strip()
            return None
    return None


def _hash_size(git_dir: Path) -> int:
    """20 bytes (SHA-1), or 32 in a repository made with ``--object-format=sha256``."""
    try:
        config = (git_dir / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 20
    words = config.lower().replace(" ", "").replace("\t", "")
    return 32 if "objectformat=sha256" in words else 20


def _names(data: bytes, hash_size: int) -> list[bytes]:
    """The paths of an index of version 2, 3 or 4 (see git's
    ``Documentation/gitformat-index.txt``); ``ValueError`` for anything else."""
    if data[:4] != b"DIRC":
        raise ValueError("not a git index")
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4) or count > len(data) // (_FIXED + hash_size + _FLAGS):
        raise ValueError("not an index this reader knows")
    names: list[bytes] = []
    offset, previous = 12, b""
    for _ in range(count):
        start = offset
        flags_at = offset + _FIXED + hash_size
        flags = int.from_bytes(data[flags_at : flags_at + _FLAGS], "big")
        offset = flags_at + _FLAGS
        if version >= 3 and flags & 0x4000:
            offset += 2  # extended flags
        if version == 4:
            strip, offset = _varint(data, offset)
            if strip > len(previous):
                raise ValueError("bad prefix length")
            end = data.index(b"\0", offset)
            name = previous[: len(previous) - strip] + data[offset:end]
            offset = end + 1
        else:
            end = data.index(b"\0", offset)
            name = data[offset:end]
            offset = start + ((end - start + 8) & ~7)  # 1 to 8 NULs pad to 8 bytes
        if offset > len(data):
            raise ValueError("truncated index")
        names.append(name)
        previous = name
    return names


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    """git's offset varint (``varint.c``): big-endian 7-bit groups, each but the last
    with its high bit set, and one added per continuation."""
    byte = data[offset]
    value = byte & 0x7F
    offset += 1
    while byte & 0x80:
        if value > 1 << 32:
            raise ValueError("varint too long")
        byte = data[offset]
        value = ((value + 1) << 7) | (byte & 0x7F)
        offset += 1
    return value, offset
