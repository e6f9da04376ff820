"""The persistent result cache, so that a repeat run over unchanged files is nearly free.

One pickle per project root (``.ivycheck_cache/``), keyed by absolute path. An entry
remembers the file's ``(mtime_ns, size)`` and content digest, its summary for the index,
and its diagnostics together with the key they were computed under: tool version, the
configuration digest, the rule set, and (only when a cross-file rule is active) the index
digest. A file whose ``stat`` matches is not even read; one whose ``stat`` changed but
whose content did not is read and hashed, and still hits.

Summaries are kept encoded (:class:`EncodedSummary`). Invariant: loading the cache decodes
no summary, so a warm run's start-up is bytes read, not object graphs rebuilt, and a rerun
decodes only the summaries a re-checked file asks about (``benchmarks/lint_throughput.py``
measures warm and one-file-touched runs).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path

from ivycheck import __version__
from ivycheck.checker import collector
from ivycheck.checker.diagnostics import Diagnostic, Edit, Fix
from ivycheck.checker.index import EncodedSummary
from ivycheck.checker.summary import FileSummary, FunctionSummary

CACHE_DIR_NAME = ".ivycheck_cache"


def _format_tag() -> str:
    """Changes whenever a cached dataclass gains or loses a field, so an old cache is
    ignored instead of unpickling into objects that lack what new code reads."""
    shapes = [
        f"{cls.__name__}:{','.join(f.name for f in fields(cls))}"
        for cls in (
            CacheEntry,
            EncodedSummary,
            FileSummary,
            FunctionSummary,
            Diagnostic,
            Fix,
            Edit,
        )
    ]
    return hashlib.blake2b("|".join(shapes).encode(), digest_size=4).hexdigest()


@dataclass
class CacheEntry:
    mtime_ns: int
    size: int
    digest: str
    summary: EncodedSummary | None = None
    result_key: str | None = None
    diagnostics: list[Diagnostic] | None = None


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
        self.entries: dict[str, CacheEntry] = {}
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
    def _file(self) -> Path:
        assert self.directory is not None
        return self.directory / f"results-{__version__}-{_format_tag()}.pickle"

    @property
    def _journal(self) -> Path:
        return self._file.with_suffix(".journal")

    def _load(self) -> None:
        try:
            with self._file.open("rb") as handle:
                loaded = pickle.load(handle)
                self._main_size = handle.tell()
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return
        if not isinstance(loaded, dict):
            return
        self.entries = loaded
        try:
            with self._journal.open("rb") as handle:
                while True:
                    record = pickle.load(handle)
                    if not isinstance(record, dict):
                        break
                    self.entries.update(record)
                    self._journal_size = handle.tell()
        except Exception:  # noqa: BLE001 - no journal, its end, a torn or corrupt record
            pass  # keep what was replayed: later records are only missed entries

    def lookup(self, path: Path) -> CacheEntry | None:
        """The entry for ``path`` if its ``stat`` still matches."""
        entry = self.entries.get(os.path.abspath(path)) if self.enabled else None
        if entry is None or stat_key(path) != (entry.mtime_ns, entry.size):
            return None
        return entry

    def lookup_digest(self, path: Path, digest: str) -> CacheEntry | None:
        """The entry for ``path`` if its content is still ``digest`` (``stat`` may differ)."""
        entry = self.entries.get(os.path.abspath(path)) if self.enabled else None
        return entry if entry is not None and entry.digest == digest else None

    def store(self, path: Path, entry: CacheEntry) -> None:
        if not self.enabled:
            return
        key = os.path.abspath(path)
        self.entries[key] = self._changed[key] = entry

    def save(self) -> None:
        if not self.enabled or not self._changed or self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("# Created by ivycheck\n*\n", encoding="utf-8")
            with collector.paused():
                record = pickle.dumps(self._changed, protocol=pickle.HIGHEST_PROTOCOL)
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
        fd, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(self.entries, handle, protocol=pickle.HIGHEST_PROTOCOL)
            size = handle.tell()
        os.replace(temporary, self._file)
        self._journal.unlink(missing_ok=True)
        self._main_size, self._journal_size = size, 0


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
