"""The persistent result cache, so that a repeat run over unchanged files is nearly free.

One JSON file per project root (``.ivycheck_cache/``), keyed by absolute path. An entry
remembers the file's ``(mtime_ns, size)`` and content digest, its summary for the index,
and its diagnostics together with the key they were computed under: tool version, the
configuration digest, the rule set, and (only when a cross-file rule is active) the index
digest. A file whose ``stat`` matches is not even read; one whose ``stat`` changed but
whose content did not is read and hashed, and still hits.

Invariant: the cache is data, never code. A repository can carry ``.ivycheck_cache/``
(checked in, or planted by a pull request) and CI, pre-commit, flake8 and the editor all
read it, so it is JSON decoded into known dataclasses with every value checked against
its annotation (:mod:`~ivycheck.checker.base.datacodec`): nothing in it is imported, called or
unpickled. Each record carries a format version and a checksum; a file that is
unreadable, foreign, of another version or corrupt is ignored (and rewritten by the next
save), an entry of the wrong shape is a miss. A bad cache costs re-checking, never a
traceback and never a finding of its own.

Entries are decoded on first lookup, and summaries stay encoded
(:class:`~ivycheck.checker.project.index.EncodedSummary`) until a rule asks about them, so a warm
run's start-up is one ``json.loads``, not object graphs rebuilt.
"""

from __future__ import annotations

import json
import os
import tempfile
import zlib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import BinaryIO

from ivycheck import __version__
from ivycheck.checker.base import collector, datacodec
from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix
from ivycheck.checker.project.index import EncodedSummary
from ivycheck.checker.project.layout import LaidOutSummary, WrapperOrder
from ivycheck.checker.project.summary import (
    DecoratorSummary,
    FileSummary,
    FunctionSummary,
    OutWrapperSummary,
)

CACHE_DIR_NAME = ".ivycheck_cache"
FORMAT = "ivycheck-cache/3"
"""The first word of every record; a record of another format is not read."""


@dataclass
class CacheEntry:
    mtime_ns: int
    size: int
    digest: str
    summary: EncodedSummary | None = None
    result_key: str | None = None
    diagnostics: list[Diagnostic] | None = None


def _format_tag() -> str:
    """Changes whenever a cached dataclass gains, loses or retypes a field, so that data
    of an older shape is never decoded (it sits in a file of another name)."""
    return datacodec.shape_tag(
        CacheEntry,
        EncodedSummary,
        FileSummary,
        FunctionSummary,
        OutWrapperSummary,
        DecoratorSummary,
        LaidOutSummary,
        WrapperOrder,
        Diagnostic,
        Fix,
        Edit,
    )


def _checksum(payload: bytes) -> bytes:
    """CRC-32: it is there to catch a torn or flipped file, which it does at a fraction of
    a cryptographic hash's cost; a crafted file passes any checksum and is safe anyway."""
    return b"%08x" % zlib.crc32(payload)


def _record(lines: dict[str, bytes]) -> bytes:
    """A header (format, checksum of what follows, line count), then one line per entry:
    the JSON path, a tab, the entry (:func:`_encoded`). JSON escapes every tab and newline
    inside its strings, so tabs and newlines only ever separate."""
    body = b"".join(b"%s\t%s\n" % (json.dumps(key).encode(), line) for key, line in lines.items())
    return b"%s %s %d\n%s" % (FORMAT.encode(), _checksum(body), len(lines), body)


def _read_record(handle: BinaryIO) -> dict[str, bytes] | None:
    """The entries of the record at ``handle``'s position, each still JSON text, or
    ``None`` at the end, or if the record is torn, corrupt or foreign."""
    head = handle.readline().split(b" ")
    if len(head) != 3 or head[0] != FORMAT.encode() or not head[2].strip().isdigit():
        return None
    lines = [handle.readline() for _ in range(int(head[2]))]
    if _checksum(b"".join(lines)) != head[1]:
        return None
    entries: dict[str, bytes] = {}
    for line in lines:
        key, _, entry = line.rstrip(b"\n").partition(b"\t")
        try:
            path = key[1:-1].decode() if b"\\" not in key else json.loads(key)
        except ValueError:  # UnicodeDecodeError included
            return None
        if not isinstance(path, str):
            return None
        entries[path] = entry
    return entries


def _encoded(entry: CacheEntry) -> bytes:
    """The entry as JSON with its summary's blob (itself JSON text) after a tab, not
    inside: a blob quoted into a JSON string costs a second escape and unescape."""
    data = datacodec.encode(entry)
    blob = b""
    if entry.summary is not None:
        blob = entry.summary.blob.encode()
        data[_SUMMARY][_BLOB] = ""
    return json.dumps(data, separators=(",", ":")).encode() + b"\t" + blob


def _decoded(raw: bytes) -> CacheEntry:
    meta, _, blob = raw.partition(b"\t")
    data = json.loads(meta)
    if isinstance(data, list) and len(data) > _SUMMARY and isinstance(data[_SUMMARY], list):
        data[_SUMMARY][_BLOB : _BLOB + 1] = [blob.decode()]
    return datacodec.decode(CacheEntry, data)


_SUMMARY = [f.name for f in fields(CacheEntry)].index("summary")
_BLOB = [f.name for f in fields(EncodedSummary)].index("blob")


class ResultCache:
    """Load once at start, look up and store during the run, save once at the end.

    Saving appends the entries this run changed to a journal next to the main file,
    replayed on load, instead of rewriting the whole cache (16 MB for a 20k-function
    tree: a tenth of a second after every one-file edit). Once the journal has grown to
    a quarter of the main file, both are folded into a new main file. A torn or corrupt
    journal record ends the replay there: what follows is only missed cache entries, and
    every entry is checked against the file's ``stat`` or digest before it is used.
    """

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._raw: dict[str, bytes] = {}
        self._decoded: dict[str, CacheEntry | None] = {}
        self._changed: dict[str, CacheEntry] = {}
        self._main_size = 0
        self._journal_size = 0
        if directory is not None:
            with collector.paused():  # it doubled the load time
                self._load()

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    @property
    def dirty(self) -> bool:
        return bool(self._changed)

    @property
    def entries(self) -> dict[str, CacheEntry]:
        """Every entry that decodes (a bad one is left out), by absolute path."""
        found = {key: self._entry(key) for key in self._raw}
        return {key: entry for key, entry in found.items() if entry is not None}

    @property
    def _file(self) -> Path:
        assert self.directory is not None
        return self.directory / f"results-{__version__}-{_format_tag()}.json"

    @property
    def _journal(self) -> Path:
        return self._file.with_suffix(".journal")

    def _load(self) -> None:
        try:
            with self._file.open("rb") as handle:
                main = _read_record(handle)
                self._main_size = handle.tell()
        except OSError:
            return
        if main is None:
            self._main_size = 0  # rewritten whole by the next save
            return
        self._raw = main
        try:
            with self._journal.open("rb") as handle:
                while (record := _read_record(handle)) is not None:
                    self._raw.update(record)
                    self._journal_size = handle.tell()
                # A torn or corrupt record ends the replay: later ones are only misses.
        except OSError:
            pass

    def _entry(self, key: str) -> CacheEntry | None:
        if key in self._decoded:
            return self._decoded[key]
        raw = self._raw.get(key)
        entry = None
        if raw is not None:
            try:
                entry = _decoded(raw)
            except ValueError:  # datacodec.DecodeError, json's errors
                entry = None  # a foreign or corrupt entry is a miss
        self._decoded[key] = entry
        return entry

    def lookup(self, path: Path) -> CacheEntry | None:
        """The entry for ``path`` if its ``stat`` still matches."""
        entry = self._entry(os.path.abspath(path)) if self.enabled else None
        if entry is None or stat_key(path) != (entry.mtime_ns, entry.size):
            return None
        return entry

    def lookup_digest(self, path: Path, digest: str) -> CacheEntry | None:
        """The entry for ``path`` if its content is still ``digest`` (``stat`` may differ)."""
        entry = self._entry(os.path.abspath(path)) if self.enabled else None
        return entry if entry is not None and entry.digest == digest else None

    def store(self, path: Path, entry: CacheEntry) -> None:
        if not self.enabled:
            return
        key = os.path.abspath(path)
        self._decoded[key] = self._changed[key] = entry

    def save(self) -> None:
        if not self.enabled or not self._changed or self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("# Created by ivycheck\n*\n", encoding="utf-8")
            with collector.paused():
                changed = {key: _encoded(entry) for key, entry in self._changed.items()}
                self._raw.update(changed)
                record = _record(changed)
                if self._main_size and (self._journal_size + len(record)) * 4 < self._main_size:
                    self._append_to_journal(record)
                else:
                    self._rewrite()
            self._changed = {}
        except OSError:
            # A read-only tree still gets its diagnostics, just no cache.
            return

    def _append_to_journal(self, record: bytes) -> None:
        """One ``write`` of the whole record in append mode, so that two runs saving at
        once cannot interleave their bytes within a record."""
        fd = os.open(self._journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            written = os.write(fd, record)
        finally:
            os.close(fd)
        if written != len(record):
            raise OSError("short write to the cache journal")
        self._journal_size += written

    def _rewrite(self) -> None:
        assert self.directory is not None
        record = _record(self._raw)
        fd, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(record)
            os.replace(temporary, self._file)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            raise
        self._journal.unlink(missing_ok=True)
        self._main_size, self._journal_size = len(record), 0


def cache_directory(root: Path) -> Path:
    """The cache of the project rooted at ``root`` (``IVYCHECK_CACHE_DIR`` overrides it)."""
    override = os.environ.get("IVYCHECK_CACHE_DIR")
    return Path(override) if override else root / CACHE_DIR_NAME


def stat_key(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size
