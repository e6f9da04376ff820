"""Reading and writing source files without losing a byte.

Source is decoded as Python itself would (PEP 263 coding cookie, UTF-8 BOM); line endings
are kept in the text as they are, so that writing a fixed file back with the same
encoding and BOM changes only what the fix changed. The exception is a file whose lines end
in a bare CR (classic Mac OS): libcst neither counts CR as a line break for positions nor
round-trips a trailing CR, so such text is analysed with LF and written back with CR.
Writes are atomic (temporary file in the same directory, then rename) and refuse to
overwrite a file that changed on disk since it was read.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import os
import tempfile
import tokenize
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


def write_source_atomically(path: Path, original: SourceFile, new_text: str) -> None:
    """Replace ``path`` with ``new_text`` if it still holds ``original``; else ``SourceError``."""
    target = path.resolve()
    try:
        current = target.read_bytes()
    except OSError as err:
        raise SourceError(f"cannot re-read before writing: {err.strerror or err}") from None
    if content_digest(current) != original.digest:
        raise SourceError("the file changed on disk during the run; not overwritten")
    data = original.encode(new_text)
    mode = target.stat().st_mode
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
