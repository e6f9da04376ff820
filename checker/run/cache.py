"""The persistent result cache, so that a repeat run over unchanged files is nearly free.

One JSON file per project root (``.ivycheck_cache/``), keyed by absolute path. An entry
remembers the file's ``(mtime_ns, size)`` and content digest, its summary for the index,
and its diagnostics together with the key they were computed under: tool version, the
configuration digest, the rule set, and (only when a cross-file rule is active) the index
digest. A file whose ``stat`` matches is not even read; one whose ``stat`` changed but
whose content did not is read and hashed, and still hits.

Invariant: the cache is data, never code, and only data this machine wrote. A repository
can carry ``.ivycheck_cache/`` (checked in, or planted by a pull request) and CI,
pre-commit, flake8 and the editor all read it, so:

- it is JSON decoded into known dataclasses with every value checked against its
  annotation (:mod:`~ivycheck.checker.base.datacodec`): nothing in it is imported, called
  or unpickled;
- every record is signed (HMAC-SHA256) with a per-user key kept outside every project
  (:mod:`~ivycheck.checker.run.cache_key`): a record that does not verify, whatever else
  it gets right, is ignored and rewritten, so a forged cache changes no finding;
- it is read with bounds (header, counts and lengths checked against the file before
  anything is split or parsed; any decode failure, ``RecursionError`` and
  ``MemoryError`` included, is a miss), so a small file cannot hang or crash a run;
- nothing in it is read or written through a link
  (:mod:`~ivycheck.checker.run.cache_folder`), and a folder git tracks is not used at all
  (:mod:`~ivycheck.checker.run.git_tracked`).

A bad cache costs re-checking, never a traceback, a finding of its own, or a byte
written outside it.

Entries are decoded on first lookup, and summaries stay encoded
(:class:`~ivycheck.checker.project.index.EncodedSummary`) until a rule asks about them, so a warm
run's start-up is one ``json.loads``, not object graphs rebuilt.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
from dataclasses import dataclass, fields
from pathlib import Path

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
from ivycheck.checker.run import cache_folder, git_tracked
from ivycheck.checker.run.cache_folder import LinkRefused
from ivycheck.checker.run.cache_key import KeyUnavailable, cache_key

CACHE_DIR_NAME = ".ivycheck_cache"
FORMAT = "ivycheck-cache/4"
"""The first word of every record; a record of another format is not read."""
_FORMAT = FORMAT.encode()
_MAX_HEADER = 128
_MAX_DIGITS = 12
_MIN_LINE = len(b'""\t\n')
"""The shortest entry line: a count above a quarter of the body is a lie."""

_log = logging.getLogger("ivycheck.cache")


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


def _mac(key: bytes, count: int, body: bytes) -> bytes:
    """HMAC-SHA256 under this user's key over the header's counts and the body: only a
    record this machine wrote verifies (a checksum would pass any crafted file)."""
    mac = hmac.new(key, b"%s %d %d\n" % (_FORMAT, count, len(body)), hashlib.sha256)
    mac.update(body)
    return mac.hexdigest().encode()


def _record(lines: dict[str, bytes], key: bytes) -> bytes:
    """A header (format, signature, line count, body length), then one line per entry:
    the JSON path, a tab, the entry (:func:`_encoded`). JSON escapes every tab and newline
    inside its strings, so tabs and newlines only ever separate."""
    body = b"".join(b"%s\t%s\n" % (json.dumps(path).encode(), line) for path, line in lines.items())
    mac = _mac(key, len(lines), body)
    return b"%s %s %d %d\n%s" % (_FORMAT, mac, len(lines), len(body), body)


def _read_record(data: bytes, offset: int, key: bytes) -> tuple[dict[str, bytes], int] | None:
    """The entries of the record at ``offset`` in ``data``, each still JSON text, and the
    offset after it; ``None`` at the end, or if the record is torn, foreign or does not
    verify. Bounded before anything is decoded: the header is short, its numbers short,
    the body length within the file and the line count within the body; then the
    signature is checked, and only then is anything split or parsed."""
    end = data.find(b"\n", offset, offset + _MAX_HEADER)
    head = data[offset:end].split(b" ") if end >= 0 else []
    if len(head) != 4 or head[0] != _FORMAT or not all(_is_count(f) for f in head[2:]):
        return None
    count, length, start = int(head[2]), int(head[3]), end + 1
    if length > len(data) - start or count * _MIN_LINE > length:
        return None
    body = data[start : start + length]
    if not hmac.compare_digest(_mac(key, count, body), head[1]):
        return None
    lines = body.split(b"\n")
    if len(lines) != count + 1 or lines[-1]:
        return None
    entries: dict[str, bytes] = {}
    for line in lines[:-1]:
        quoted, _, entry = line.partition(b"\t")
        try:
            path = quoted[1:-1].decode() if b"\\" not in quoted else json.loads(quoted)
        except Exception:  # noqa: BLE001 - any failure to decode is an unreadable record
            return None
        if not isinstance(path, str):
            return None
        entries[path] = entry
    return entries, start + length


def _is_count(field: bytes) -> bool:
    return field.isdigit() and len(field) <= _MAX_DIGITS


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
    a quarter of the main file, both are folded into a new main file. A torn, corrupt or
    forged journal record ends the replay there (what follows is only missed cache
    entries) and the next save folds everything into a new main file; every entry is
    checked against the file's ``stat`` or digest before it is used.

    A cache that cannot be trusted is not used at all, and the run goes on without one:
    a folder git tracks (it came with the repository), a link where the cache reads or
    writes (said once, on standard error or the server's log), no per-user key.
    """

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._key = b""
        self._raw: dict[str, bytes] = {}
        self._decoded: dict[str, CacheEntry | None] = {}
        self._changed: dict[str, CacheEntry] = {}
        self._main_size = 0
        self._journal_size = 0
        self._journal_whole = True
        if directory is not None:
            with collector.paused():  # it doubled the load time
                self._load(directory)

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

    def _load(self, directory: Path) -> None:
        if git_tracked.tracks(directory):
            self.directory = None  # someone else's files: neither read nor rewritten
            return
        main_name, journal_name = _file_names()
        try:
            self._key = cache_key()
            with cache_folder.opened(directory, create=False) as folder:
                if folder is None:
                    return
                folder.refuse_links(main_name, journal_name, cache_folder.GITIGNORE)
                data = folder.read(main_name)
                journal = folder.read(journal_name) if data else None
        except (KeyUnavailable, LinkRefused) as err:
            self._refuse(str(err))
            return
        except OSError:
            return  # unreadable: re-checked, and rewritten if it can be
        found = _read_record(data, 0, self._key) if data else None
        if found is None:
            return  # rewritten whole by the next save
        self._raw, self._main_size = found
        offset = 0
        while journal and (record := _read_record(journal, offset, self._key)) is not None:
            self._raw.update(record[0])
            offset = self._journal_size = record[1]
        self._journal_whole = offset == len(journal or b"")

    def _refuse(self, reason: str) -> None:
        """No cache for the rest of the run, said once per process and reason."""
        self.directory = None
        _warn(reason)

    def _entry(self, key: str) -> CacheEntry | None:
        if key in self._decoded:
            return self._decoded[key]
        raw = self._raw.get(key)
        entry = None
        if raw is not None:
            try:
                entry = _decoded(raw)
            except Exception:  # noqa: BLE001 - any failure to decode is a miss
                entry = None  # RecursionError, MemoryError, OverflowError, ... included
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
        if self.directory is None or not self._changed:
            return
        try:
            with cache_folder.opened(self.directory, create=True) as folder:
                assert folder is not None
                folder.ensure_gitignore()
                with collector.paused():
                    self._write(folder)
            self._changed = {}
        except LinkRefused as err:
            self._refuse(str(err))
        except OSError:
            return  # a read-only tree still gets its diagnostics, just no cache

    def _write(self, folder: cache_folder.CacheFolder) -> None:
        main_name, journal_name = _file_names()
        changed = {key: _encoded(entry) for key, entry in self._changed.items()}
        self._raw.update(changed)
        record = _record(changed, self._key)
        appendable = self._main_size and self._journal_whole
        if appendable and (self._journal_size + len(record)) * 4 < self._main_size:
            folder.append(journal_name, record)
            self._journal_size += len(record)
            return
        whole = _record(self._raw, self._key)
        folder.replace(main_name, whole)
        folder.unlink(journal_name)
        self._main_size, self._journal_size, self._journal_whole = len(whole), 0, True


def _file_names() -> tuple[str, str]:
    """The main file and the journal of this version and data shape."""
    stem = f"results-{__version__}-{_format_tag()}"
    return f"{stem}.json", f"{stem}.journal"


_WARNED: set[str] = set()


def _warn(reason: str) -> None:
    """Through :mod:`logging`: standard error in the command, flake8 and pre-commit (no
    handler there: Python's last resort prints the bare message), the language server's
    log in the editor."""
    if reason not in _WARNED:
        _WARNED.add(reason)
        _log.warning("ivycheck: warning: the result cache is not used: %s", reason)


def cache_directory(root: Path) -> Path:
    """The cache of the project rooted at ``root`` (``IVYCHECK_CACHE_DIR`` overrides it)."""
    override = os.environ.get("IVYCHECK_CACHE_DIR")
    return Path(override) if override else root / CACHE_DIR_NAME


def cache_status(directory: Path) -> str:
    """Where the cache is, and why it is not used if it is not (``--show-settings``)."""
    if git_tracked.tracks(directory):
        return f"{directory} (not used: git tracks it)"
    try:
        cache_key()
        with cache_folder.opened(directory, create=False) as folder:
            if folder is not None:
                folder.refuse_links(*_file_names(), cache_folder.GITIGNORE)
    except (KeyUnavailable, LinkRefused) as err:
        return f"{directory} (not used: {err})"
    except OSError as err:
        return f"{directory} (unreadable: {err.strerror or err})"
    return str(directory)


def stat_key(path: Path) -> tuple[int, int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size
