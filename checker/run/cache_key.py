"""The per-user key that signs the result cache, kept where no repository can put it.

A repository can carry ``.ivycheck_cache/`` (checked in, or planted by a pull request), and
a checksum only catches accidents: a forged file with the right CRC was trusted, so its
entries could hide findings or invent them. Every record is therefore signed with a
secret that lives in the user's own cache folder (``$XDG_CACHE_HOME/ivycheck/cache-key``,
else ``~/.cache/ivycheck/cache-key``), never in a project: a record this machine did not
write does not verify, and is ignored and rewritten.

Invariant: the key is never read through a link, nor from a file or folder another user
could have written. It is made with ``O_EXCL`` under a temporary name and hard-linked into
place, so concurrent first runs agree on one key and none ever reads a half-written one.
"""

from __future__ import annotations

import os
import secrets
import stat
from contextlib import suppress
from pathlib import Path

KEY_SIZE = 32
KEY_NAME = "cache-key"

_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC
_KEYS: dict[Path, bytes] = {}


class KeyUnavailable(Exception):
    """No key can be read or made; the run goes on without a cache."""


def key_folder() -> Path:
    """The platform's per-user cache folder for ivycheck (XDG base directories)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "ivycheck"


def cache_key() -> bytes:
    """This user's key (made on first use), read once per process and folder."""
    folder = key_folder()
    known = _KEYS.get(folder)
    if known is None:
        try:
            known = _KEYS[folder] = _load_or_make(folder)
        except OSError as err:
            raise KeyUnavailable(
                f"cannot keep the cache key in {folder}: {err.strerror or err}"
            ) from None
    return known


def _load_or_make(folder: Path) -> bytes:
    folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
    try:
        _check_private(os.fstat(directory), folder, 0o022)
        for _ in range(3):  # another process may be making it right now
            key = _read_key(directory, folder)
            if key is not None:
                return key
            _make_key(directory)
        raise KeyUnavailable(f"cannot keep the cache key in {folder}: it keeps vanishing")
    finally:
        os.close(directory)


def _read_key(directory: int, folder: Path) -> bytes | None:
    try:
        fd = os.open(KEY_NAME, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=directory)
    except FileNotFoundError:
        return None
    try:
        found = os.fstat(fd)
        _check_private(found, folder / KEY_NAME, 0o077)
        if not stat.S_ISREG(found.st_mode) or found.st_size != KEY_SIZE:
            raise KeyUnavailable(f"{folder / KEY_NAME} is not a key ivycheck made")
        key = os.read(fd, KEY_SIZE)
    finally:
        os.close(fd)
    if len(key) != KEY_SIZE:
        raise KeyUnavailable(f"{folder / KEY_NAME} is not a key ivycheck made")
    return key


def _make_key(directory: int) -> None:
    temporary = f"{KEY_NAME}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    fd = os.open(temporary, flags, 0o600, dir_fd=directory)
    try:
        try:
            os.write(fd, secrets.token_bytes(KEY_SIZE))
            os.fsync(fd)
        finally:
            os.close(fd)
        with suppress(FileExistsError):  # another process won: its key is the key
            os.link(
                temporary,
                KEY_NAME,
                src_dir_fd=directory,
                dst_dir_fd=directory,
                follow_symlinks=False,
            )
    finally:
        os.unlink(temporary, dir_fd=directory)


def _check_private(found: os.stat_result, path: Path, exposed: int) -> None:
    """Ours, with none of the ``exposed`` mode bits: the key readable by nobody else, its
    folder writable by nobody else (a key another user can read or replace signs nothing)."""
    if found.st_uid != os.geteuid():
        raise KeyUnavailable(f"{path} belongs to another user")
    if found.st_mode & exposed:
        raise KeyUnavailable(f"{path} is open to other users (mode {found.st_mode & 0o777:o})")
