"""The persistent result cache, so that a repeat run over unchanged files is nearly free.

One pickle per project root (``.ivycheck_cache/``), keyed by absolute path. An entry
remembers the file's ``(mtime_ns, size)`` and content digest, its summary for the index,
and its diagnostics together with the key they were computed under: tool version, the
configuration digest, the rule set, and (only when a cross-file rule is active) the index
digest. A file whose ``stat`` matches is not even read; one whose ``stat`` changed but
whose content did not is read and hashed, and still hits.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path

from ivycheck import __version__
from ivycheck.checker.diagnostics import Diagnostic, Edit, Fix
from ivycheck.checker.summary import FileSummary, FunctionSummary

CACHE_DIR_NAME = ".ivycheck_cache"


def _format_tag() -> str:
    """Changes whenever a cached dataclass gains or loses a field, so an old cache is
    ignored instead of unpickling into objects that lack what new code reads."""
    shapes = [
        f"{cls.__name__}:{','.join(f.name for f in fields(cls))}"
        for cls in (CacheEntry, FileSummary, FunctionSummary, Diagnostic, Fix, Edit)
    ]
    return hashlib.blake2b("|".join(shapes).encode(), digest_size=4).hexdigest()


@dataclass
class CacheEntry:
    mtime_ns: int
    size: int
    digest: str
    summary: FileSummary | None = None
    result_key: str | None = None
    diagnostics: list[Diagnostic] | None = None


class ResultCache:
    """Load once at start, look up and store during the run, save once at the end."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self.entries: dict[str, CacheEntry] = {}
        self.dirty = False
        if directory is not None:
            self._load()

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    @property
    def _file(self) -> Path:
        assert self.directory is not None
        return self.directory / f"results-{__version__}-{_format_tag()}.pickle"

    def _load(self) -> None:
        try:
            with self._file.open("rb") as handle:
                loaded = pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            return
        if isinstance(loaded, dict):
            self.entries = loaded

    def lookup(self, path: Path) -> CacheEntry | None:
        """The entry for ``path`` if its ``stat`` still matches."""
        if not self.enabled:
            return None
        entry = self.entries.get(str(path.absolute()))
        if entry is None:
            return None
        try:
            stat = path.stat()
        except OSError:
            return None
        if (stat.st_mtime_ns, stat.st_size) != (entry.mtime_ns, entry.size):
            return None
        return entry

    def lookup_digest(self, path: Path, digest: str) -> CacheEntry | None:
        """The entry for ``path`` if its content is still ``digest`` (``stat`` may differ)."""
        entry = self.entries.get(str(path.absolute())) if self.enabled else None
        return entry if entry is not None and entry.digest == digest else None

    def store(self, path: Path, entry: CacheEntry) -> None:
        if not self.enabled:
            return
        self.entries[str(path.absolute())] = entry
        self.dirty = True

    def save(self) -> None:
        if not self.enabled or not self.dirty or self.directory is None:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            gitignore = self.directory / ".gitignore"
            if not gitignore.exists():
                gitignore.write_text("# Created by ivycheck\n*\n", encoding="utf-8")
            fd, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(self.entries, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self._file)
        except OSError:
            # A read-only tree still gets its diagnostics, just no cache.
            return


def stat_key(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size
