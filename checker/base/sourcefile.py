"""Reading and writing source files without losing a byte.

Source is decoded as Python itself would (PEP 263 coding cookie, UTF-8 BOM); line endings
are kept in the text as they are, so that writing a fixed file back with the same
encoding and BOM changes only what the fix changed. The exception is a file whose lines end
in a bare CR (classic Mac OS): libcst neither counts CR as a line break for positions nor
round-trips a trailing CR, so such text is analysed with LF and written back with CR.
Writes replace the file whole, by rename (:func:`write_source`: never a torn file, its
owner and mode carried over), and refuse to overwrite a file that changed on disk since
it was read.
"""

from __future__ import annotations

import codecs
import fcntl
import hashlib
import io
import os
import secrets
import signal
import stat
import threading
import tokenize
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path

TEMPORARY_SUFFIX = ".ivycheck-tmp"
"""Ends the name of the new file a fix writes before renaming it over the old one."""
_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


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


def write_source(path: Path, original: SourceFile, new_text: str, root: Path | None = None) -> None:
    """Replace the file at ``path`` by one holding ``new_text`` if it still holds
    ``original``; else ``SourceError`` and the file is left as it is.

    Invariant: at every instant the file is wholly the old text or wholly the new one,
    whatever arrives when (SIGKILL from a CI time-out or the OOM killer included): the new
    text goes into a new file beside it, which is renamed over it (``rename`` is atomic).
    Writing in place could not promise that (a kill between the write and the truncation
    once left the fixed text followed by the old tail). Hence:

    - its mode and, where the process may set it, its owner and group are carried over;
      a file of another user that the process cannot give back to that user is not
      written (its owner would change), nor is a file with other hard links (a rename
      would split them: the other names would keep the old text), nor one the process
      may not write (it is opened for writing first, though a rename needs only the
      folder's permission), nor one whose folder the process cannot write in: each is
      refused with a message saying why;
    - the content is compared through an open descriptor of the old file, under an
      exclusive ``flock`` (which cooperating writers honour), right before the new file
      is made, and the name is checked to still be that file right before the rename:
      an edit saved meanwhile is kept and the fix reported as not applied;
    - the new file is flushed to disk before the rename, so a crash cannot leave the
      name pointing at an empty file; a kill leaves at most a hidden temporary file
      (``.NAME.XXXX.ivycheck-tmp``) beside it;
    - Ctrl-C and SIGTERM wait until the rename is done (signals blocked meanwhile);
    - with ``root``, a path that is, or goes through, a symbolic link to a file outside
      ``root`` is refused, so a link planted in a repository cannot make ``--fix``
      write elsewhere; the folder and the file are opened without following a link, so
      one swapped in after that check is not followed either.
    """
    target = Path(os.path.realpath(path))
    if root is not None and not _inside(target, Path(os.path.realpath(root))):
        raise SourceError(
            f"not written: it is a symbolic link to {target}, outside the project ({root})"
        )
    data = original.encode(new_text)
    try:
        directory = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
    except OSError as err:
        raise SourceError(f"cannot open its folder: {err.strerror or err}") from None
    try:
        try:  # for writing, though it is replaced: a file the user may not write stays
            fd = os.open(target.name, os.O_RDWR | _NOFOLLOW, dir_fd=directory)
        except OSError as err:
            raise SourceError(f"cannot open for writing: {err.strerror or err}") from None
        try:
            with _signals_deferred():
                fcntl.flock(fd, fcntl.LOCK_EX)
                old = os.fstat(fd)
                _check_replaceable(old)
                if content_digest(_read_all(fd)) != original.digest:
                    raise SourceError("the file changed on disk during the run; not overwritten")
                _replace(directory, target.name, data, old)
        finally:
            os.close(fd)
    finally:
        os.close(directory)


write_source_in_place = write_source
"""The name the runner and ``--add-noqa`` import (the file is no longer written in place)."""


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while chunk := os.pread(fd, 1 << 20, sum(map(len, chunks))):
        chunks.append(chunk)
    return b"".join(chunks)


def _check_replaceable(old: os.stat_result) -> None:
    if not stat.S_ISREG(old.st_mode):
        raise SourceError("it is not a regular file")
    if old.st_nlink > 1:
        raise SourceError(
            f"it has {old.st_nlink} hard links (a fix replaces the file whole: the other"
            " names would keep the old text)"
        )
    if old.st_uid != os.geteuid() and os.geteuid() != 0:
        raise SourceError(
            "it belongs to another user (a fix replaces the file whole, and the process"
            " cannot give the new one back to that user)"
        )


def _replace(directory: int, name: str, data: bytes, old: os.stat_result) -> None:
    """``data`` under ``name`` by rename, the new file carrying ``old``'s owner and mode."""
    temporary = _new_file(directory, name, data, old)
    try:
        if not _names_inode(directory, name, old):
            raise SourceError("the file was replaced on disk during the run; fix not kept")
        os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary, dir_fd=directory)
        raise
    with suppress(OSError):  # the rename itself made durable, where the system allows
        os.fsync(directory)


def _new_file(directory: int, name: str, data: bytes, old: os.stat_result) -> str:
    """A new hidden file beside ``name`` holding ``data``, flushed to disk; its name."""
    temporary = f".{name}.{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    try:
        fd = os.open(temporary, flags, 0o600, dir_fd=directory)
    except OSError as err:
        raise SourceError(f"cannot write a new file beside it: {err.strerror or err}") from None
    try:
        if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            with suppress(PermissionError):  # a group the process is not in stays its own
                os.fchown(fd, old.st_uid, old.st_gid)
        os.fchmod(fd, stat.S_IMODE(old.st_mode))  # after fchown, which clears set-id bits
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with suppress(OSError):
            os.unlink(temporary, dir_fd=directory)
        raise
    os.close(fd)
    return temporary


def _names_inode(directory: int, name: str, old: os.stat_result) -> bool:
    try:
        now = os.stat(name, dir_fd=directory, follow_symlinks=False)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (old.st_dev, old.st_ino)


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
