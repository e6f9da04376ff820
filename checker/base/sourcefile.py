"""Reading and writing source files without losing a byte.

Source is decoded as Python itself would (PEP 263 coding cookie, UTF-8 BOM); line endings
are kept in the text as they are, so that writing a fixed file back with the same
encoding and BOM changes only what the fix changed. The exception is a file whose lines end
in a bare CR (classic Mac OS): libcst neither counts CR as a line break for positions nor
round-trips a trailing CR, so such text is analysed with LF and written back with CR.
Writes go into the file in place (:func:`write_source_in_place`: its owner, mode and hard
links stay) and refuse to overwrite a file that changed on disk since it was read.
"""

from __future__ import annotations

import codecs
import errno
import fcntl
import hashlib
import io
import os
import signal
import threading
import tokenize
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path


class SourceError(Exception):
    """A file that cannot be read or decoded; becomes one diagnostic, the run goes on."""


@dataclass(frozen=True)
class SourceFile:
    """A file's text and what is needed to write it back byte-for-byte."""

    text: str
    encoding: str
    bom: bool
    digest: str
    cr_newlines: bool = False

    def encode(self, text: str) -> bytes:
        if self.cr_newlines:
            text = text.replace("\n", "\r")
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


def content_digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def decode_source(data: bytes) -> SourceFile:
    """Decode bytes as CPython decodes a module; ``SourceError`` if that fails."""
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as err:
        raise SourceError(f"cannot determine the encoding: {err}") from None
    body = data[len(codecs.BOM_UTF8) :] if bom else data
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    try:
        text = body.decode(encoding)
    except (UnicodeDecodeError, LookupError) as err:
        raise SourceError(f"cannot decode the file as {encoding}: {err}") from None
    return SourceFile(text, encoding, bom, content_digest(data))


def too_large_on_disk(path: str, limit: int) -> int | None:
    """The size in bytes of the file at ``path`` if its bytes on disk already show that
    its text exceeds ``limit`` bytes of UTF-8, so it need not be read; else ``None``
    (also when it cannot be stat'ed: :func:`read_source` says what is wrong with it).
    The encodings Python reads take at most as many bytes a character as UTF-8; only a
    UTF-8 BOM is on disk and not in the text."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return None
    return size if size > limit + len(codecs.BOM_UTF8) else None


def read_source(path: Path) -> SourceFile:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        if path.is_symlink():
            raise SourceError("broken symbolic link") from None
        raise SourceError("no such file") from None
    except IsADirectoryError:
        raise SourceError("is a directory") from None
    except OSError as err:
        raise SourceError(f"cannot read the file: {err.strerror or err}") from None
    source = decode_source(data)
    if "\r" in source.text and "\n" not in source.text:
        return replace(source, text=source.text.replace("\r", "\n"), cr_newlines=True)
    return source


def write_source_in_place(
    path: Path, original: SourceFile, new_text: str, root: Path | None = None
) -> None:
    """Overwrite the bytes of ``path`` with ``new_text`` if it still holds ``original``;
    else ``SourceError`` and the file is left as it is.

    The file keeps its identity (as ruff's ``--fix`` does): the same inode, hence its
    owner, group, mode, ACLs and hard links; a temporary file renamed over it would make
    another user's file ours and split its links. What makes that safe:

    - the content is compared through the same open descriptor right before the write,
      under an exclusive ``flock`` (which cooperating writers honour), so a concurrent
      edit is lost only if it lands in the microseconds between that read and the
      write; an editor that saves by renaming a new file over the old one is detected
      after the write (the path no longer names the inode written) and reported;
    - the new size is allocated first (``posix_fallocate``), so a full disk fails before
      a byte changes, and a write that fails anyway is undone with the original bytes;
    - Ctrl-C and SIGTERM wait until the file is whole (signals blocked for the write);
    - with ``root``, a path that is, or goes through, a symbolic link to a file outside
      ``root`` is refused, so a link planted in a repository cannot make ``--fix``
      write elsewhere.
    """
    target = Path(os.path.realpath(path))
    if root is not None and not _inside(target, Path(os.path.realpath(root))):
        raise SourceError(
            f"not written: it is a symbolic link to {target}, outside the project ({root})"
        )
    data = original.encode(new_text)
    try:
        fd = os.open(target, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    except OSError as err:
        raise SourceError(f"cannot open for writing: {err.strerror or err}") from None
    try:
        with _signals_deferred():
            fcntl.flock(fd, fcntl.LOCK_EX)
            current = _read_all(fd)
            if content_digest(current) != original.digest:
                raise SourceError("the file changed on disk during the run; not overwritten")
            _overwrite(fd, current, data)
        if not _names_inode(target, os.fstat(fd)):
            raise SourceError("the file was replaced on disk during the run; fix not kept")
    finally:
        os.close(fd)


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while chunk := os.pread(fd, 1 << 20, sum(map(len, chunks))):
        chunks.append(chunk)
    return b"".join(chunks)


def _overwrite(fd: int, old: bytes, new: bytes) -> None:
    """``new`` in place of ``old``; on failure ``old`` is put back before re-raising."""
    if len(new) > len(old):
        try:
            os.posix_fallocate(fd, 0, len(new))
        except OSError as err:
            if err.errno not in (errno.EINVAL, errno.EOPNOTSUPP):  # a file system without it
                raise
    try:
        _write_at_start(fd, new)
        os.ftruncate(fd, len(new))
        os.fsync(fd)
    except OSError:
        _write_at_start(fd, old)
        os.ftruncate(fd, len(old))
        raise


def _write_at_start(fd: int, data: bytes) -> None:
    view = memoryview(data)
    offset = 0
    while offset < len(view):
        offset += os.pwrite(fd, view[offset:], offset)


def _names_inode(path: Path, written: os.stat_result) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (written.st_dev, written.st_ino)


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Ctrl-C or SIGTERM during the block takes effect when it ends (main thread only:
    elsewhere Python delivers no signals anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    deferred = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, deferred)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
