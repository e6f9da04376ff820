"""The cache folder's files, read and written without ever following a link.

A repository can plant ``.ivycheck_cache`` as a link out of the project, or a file in it
(the journal, the ``.gitignore``) as a link to a file the user can write: appending a
record through a journal linked to a shell start-up file once wrote a file name chosen by
the repository (``$(touch PWNED).py``) where the next login ran it. So the folder is
opened with ``O_DIRECTORY | O_NOFOLLOW`` and every file in it relative to that descriptor
with ``O_NOFOLLOW`` (``openat``): a link is never followed, not even one swapped in between
a check and a write, and a link, a non-regular file or a file with other hard links where
the cache writes is a :class:`LinkRefused` (the run then goes on without a cache).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

MAX_FILE_BYTES = 1 << 30
"""A cache file above this is not read (a 20k-function tree's is 16 MB)."""

GITIGNORE = ".gitignore"
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # a planted FIFO must not block


class LinkRefused(OSError):
    """A link (or something else that is not a plain file of ours) where the cache
    reads or writes."""


class CacheFolder:
    """An open descriptor of the cache folder; every name is relative to it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd

    def refuse_links(self, *names: str) -> None:
        """``LinkRefused`` if any of ``names`` is a link or not a regular file."""
        for name in names:
            try:
                found = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            _check_plain(found, self.path / name)

    def read(self, name: str) -> bytes | None:
        """The bytes of ``name`` (``None`` if it is missing or too large to be ours)."""
        try:
            fd = os.open(name, os.O_RDONLY | _NOFOLLOW, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise _refused(err, self.path / name) from None
        try:
            found = os.fstat(fd)
            _check_plain(found, self.path / name)
            if found.st_size > MAX_FILE_BYTES:
                return None
            chunks: list[bytes] = []
            size = 0
            while (chunk := os.read(fd, 1 << 24)) and size <= MAX_FILE_BYTES:
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks) if size <= MAX_FILE_BYTES else None
        finally:
            os.close(fd)

    def append(self, name: str, data: bytes) -> None:
        """``data`` at the end of ``name`` in one ``write`` (two runs saving at once cannot
        interleave their bytes within it)."""
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW
        try:
            fd = os.open(name, flags, 0o600, dir_fd=self.fd)
        except OSError as err:
            raise _refused(err, self.path / name) from None
        try:
            _check_plain(os.fstat(fd), self.path / name)
            written = os.write(fd, data)
        finally:
            os.close(fd)
        if written != len(data):
            raise OSError(f"short write to {self.path / name}")

    def replace(self, name: str, data: bytes) -> None:
        """``name`` replaced whole by a new file holding ``data`` (a rename replaces a
        link at ``name``, never writes through it)."""
        temporary = f".{name}.{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
        fd = os.open(temporary, flags, 0o600, dir_fd=self.fd)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            finally:
                os.close(fd)
            os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.unlink(temporary)
            raise

    def unlink(self, name: str) -> None:
        """Removes the name, never what a link there points at."""
        with suppress(FileNotFoundError):
            os.unlink(name, dir_fd=self.fd)

    def ensure_gitignore(self) -> None:
        """A ``.gitignore`` ignoring the whole folder, created only where nothing is: an
        existing one is kept, a link there is refused (``O_EXCL`` never follows one)."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
        try:
            fd = os.open(GITIGNORE, flags, 0o644, dir_fd=self.fd)
        except FileExistsError:
            self.refuse_links(GITIGNORE)
            return
        except OSError as err:
            raise _refused(err, self.path / GITIGNORE) from None
        try:
            os.write(fd, b"# Created by ivycheck\n*\n")
        finally:
            os.close(fd)


@contextmanager
def opened(path: Path, *, create: bool) -> Iterator[CacheFolder | None]:
    """The folder at ``path`` (made first with ``create``; else ``None`` if missing).
    ``LinkRefused`` if ``path`` itself is a link: its parents may be (the project may
    sit behind one), the folder may not."""
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
        with suppress(FileExistsError):
            os.mkdir(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        if create:
            raise
        yield None
        return
    except OSError as err:
        raise _refused(err, path) from None
    try:
        yield CacheFolder(path, fd)
    finally:
        os.close(fd)


def _check_plain(found: os.stat_result, path: Path) -> None:
    if stat.S_ISLNK(found.st_mode):
        raise LinkRefused(f"{path} is a symbolic link")
    if not stat.S_ISREG(found.st_mode):
        raise LinkRefused(f"{path} is not a regular file")
    if found.st_nlink > 1:
        raise LinkRefused(f"{path} has other hard links")


def _refused(err: OSError, path: Path) -> OSError:
    """``O_NOFOLLOW`` on a link fails with ``ELOOP`` (``ENOTDIR`` for a file in place
    of the folder): say what was found there."""
    if os.path.islink(path):
        return LinkRefused(f"{path} is a symbolic link")
    if os.path.exists(path) and not os.path.isdir(path) and err.errno == errno.ENOTDIR:
        return LinkRefused(f"{path} is not a folder")
    return err
