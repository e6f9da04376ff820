"""The server's model of a workspace: configuration, file summaries and the project index.

The index that cross-file rules consult is built from every Python file of each workspace
folder, discovered and summarized as the command does it (:mod:`ivycheck.checker.indexing`),
read from disk once at start-up and then kept current: an open document's
summary comes from its unsaved buffer, a watched file event re-reads that one file.
When a change alters what other files can see (a backend gains or loses a function, an
attribute appears), :meth:`Project.update` says so, and the server re-checks the open
documents that depend on it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ivycheck.checker import pyast
from ivycheck.checker.cache import ResultCache, cache_directory
from ivycheck.checker.config import Config, ConfigError, Overrides, find_config
from ivycheck.checker.diagnostics import Diagnostic
from ivycheck.checker.discovery import ProjectFiles, discover
from ivycheck.checker.engine import check_source, fix_source
from ivycheck.checker.incremental import IncrementalChecker
from ivycheck.checker.index import EncodedSummary, ProjectIndex
from ivycheck.checker.indexing import summarize_files
from ivycheck.checker.registry import all_rules
from ivycheck.checker.rule import Rule
from ivycheck.checker.sourcefile import SourceError, read_source
from ivycheck.checker.summary import FileSummary, summarize
from ivycheck.lsp.config_problems import ConfigProblem, problem_file

Summary = FileSummary | EncodedSummary
"""Summaries read from disk stay encoded (decoded when a rule asks); a buffer's is made
in the clear."""

SCAN_CHUNK = 8
"""Files summarized between two looks at the clock (a file takes about 15 ms)."""

LARGE_BUFFER = 1_000_000
"""Characters above which a buffer's parsed tree is dropped right after its check."""


@dataclass(frozen=True)
class Settings:
    """Client settings (``ivycheck.*``), applied over ``[tool.ivycheck]``."""

    enable: bool = True
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()

    @classmethod
    def from_client(cls, value: object) -> Settings:
        if not isinstance(value, dict):
            return cls()
        select = value.get("select")
        ignore = value.get("ignore")
        return cls(
            enable=bool(value.get("enable", True)),
            select=tuple(str(c) for c in select) if isinstance(select, list) and select else None,
            ignore=tuple(str(c) for c in ignore) if isinstance(ignore, list) else (),
        )

    @property
    def overrides(self) -> Overrides:
        return Overrides(select=self.select, ignore=self.ignore)


@dataclass
class Project:
    """Every file the server knows, across all workspace folders."""

    settings: Settings = field(default_factory=Settings)
    summaries: dict[str, Summary] = field(default_factory=dict)
    _configs: dict[Path, Config] = field(default_factory=dict)
    _index: ProjectIndex | None = None
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _incremental: dict[str, IncrementalChecker] = field(default_factory=dict)
    _version: int = 0
    _own_versions: dict[str, int] = field(default_factory=dict)
    """How often each file's public facts changed; the rest is what other files changed."""
    _generation: int = 0
    index_complete: bool = False
    """Whether every workspace file has been summarized once. Until then a check runs
    only the rules that do not read the index: a half-built index would make the
    cross-file rules report what the files not yet read would refute."""
    _scans: list[tuple[ResultCache, ProjectFiles]] = field(default_factory=list)
    """Bumped whenever the index is thrown away: cached per-document results keyed on it
    are then stale. (``id()`` of the index is no key: CPython reuses a freed object's id.)"""
    config_problems: dict[Path, ConfigProblem] = field(default_factory=dict)
    """Configuration files that could not be used, by file: the server tells the user."""
    _last_good: dict[Path, Config] = field(default_factory=dict)
    """The last configuration that loaded, by root: a typo made while editing
    ``pyproject.toml`` must not switch every rule back to its defaults meanwhile."""

    # --- configuration ------------------------------------------------------------------

    def config_for(self, path: Path) -> Config:
        """``[tool.ivycheck]`` of the nearest pyproject, with the client's settings on top."""
        with self._lock:
            try:
                base = find_config(path, self._configs)
            except ConfigError as error:
                base = self._fallback(path, error)
            else:
                if all(p.file.parent != base.root for p in self.config_problems.values()):
                    self._last_good[base.root] = base  # not a fallback cached for a directory
            return self.settings.overrides.apply(base)

    def _fallback(self, path: Path, error: ConfigError) -> Config:
        """The last good configuration of the broken file's root (defaults if none),
        remembered for every directory between ``path`` and that root so that the broken
        file is not parsed again for each file of the workspace."""
        source = problem_file(error, path)
        root = source.parent
        base = self._last_good.get(root) or Config(root=root)
        self.config_problems[source] = ConfigProblem(source, str(error), root in self._last_good)
        directory = Path(os.path.abspath(path))
        if not directory.is_dir():
            directory = directory.parent
        ancestors = (directory, *directory.parents)
        if root in ancestors:
            for candidate in ancestors[: ancestors.index(root) + 1]:
                self._configs[candidate] = base
        return base

    def check_configs(self, paths: Iterable[Path]) -> dict[Path, ConfigProblem]:
        """Load the configuration of each of ``paths`` again; the problems found."""
        with self._lock:
            for path in paths:
                self.config_for(path)
            return dict(self.config_problems)

    def forget_configs(self) -> None:
        with self._lock:
            self._configs.clear()
            self.config_problems.clear()
            self._drop_index()
            self._incremental.clear()

    def close(self, path: Path) -> None:
        """A document was closed: drop its incremental state."""
        self._incremental.pop(os.path.abspath(path), None)

    # --- index --------------------------------------------------------------------------

    def scan(self, folders: Iterable[Path]) -> list[str]:
        """Summarize every Python file under ``folders``; returns problems to log."""
        problems = self.begin_scan(folders)
        while not self.scan_step(float("inf")):
            pass
        return problems

    def begin_scan(self, folders: Iterable[Path]) -> list[str]:
        """Discover the files of ``folders`` and load the command's on-disk cache of each;
        :meth:`scan_step` then summarizes them. Returns problems to log."""
        batches = []
        problems: list[str] = []
        for folder in folders:
            project = discover([folder], self.config_for)
            cache = ResultCache(cache_directory(self.config_for(folder).root))
            batches.append((cache, project))
            problems += [f"{p.path}: {p.message}" for p in project.problems]
        with self._lock:
            self._scans.extend(batches)
        return problems

    def scan_step(self, budget: float) -> bool:
        """Summarize pending files for about ``budget`` seconds (a file's summary comes
        from the cache when its ``stat`` matches); whether the scan is complete.

        The server runs one step at a time on its only checking thread, so a check
        asked for meanwhile waits for one step, not for the whole workspace. Summaries
        made here are saved to the cache at the end, for the next start and the command.
        """
        deadline = time.perf_counter() + budget
        while self._scans and time.perf_counter() < deadline:
            cache, project = self._scans[0]
            chunk, rest = project.files[:SCAN_CHUNK], project.files[SCAN_CHUNK:]
            part = ProjectFiles(chunk, {path: project.configs[path] for path in chunk}, [])
            found = summarize_files(part, cache)
            with self._lock:
                for path, digest, summary in found:
                    if digest is not None:
                        self.summaries.setdefault(os.path.abspath(path), summary)
                self._drop_index()
            if rest:
                self._scans[0] = (cache, ProjectFiles(rest, project.configs, []))
            else:
                self._scans.pop(0)
                cache.save()
        if self._scans:
            return False
        self.index_complete = True
        return True

    def _summary_from_disk(self, path: Path) -> Summary | None:
        """``None`` for a file that cannot be read (as if it were not there)."""
        project = ProjectFiles([path], {path: self.config_for(path)}, [])
        [(_, digest, summary)] = summarize_files(project, ResultCache(None))
        return summary if digest is not None else None

    def update(self, path: Path, text: str | None) -> bool:
        """New text for a file (``None``: read it from disk, or it was deleted).

        Returns whether other files may now get different diagnostics.
        """
        key = os.path.abspath(path)
        if text is None:
            summary: Summary | None = self._summary_from_disk(path) if path.exists() else None
        else:
            config = self.config_for(path)
            relative = config.relative(path)
            summary = summarize(text, relative, config.part_of(relative))
        with self._lock:
            previous = self.summaries.get(key)
            if summary is None:
                self.summaries.pop(key, None)
            else:
                self.summaries[key] = summary
            changed = (previous is None) != (summary is None) or (
                previous is not None
                and summary is not None
                and _facts_digest(previous) != _facts_digest(summary)
            )
            if changed:
                self._version += 1
                self._own_versions[key] = self._own_versions.get(key, 0) + 1
            if self._index is not None:
                index_key = previous.path if previous is not None else None
                if summary is not None and index_key is None:
                    index_key = summary.path
                if index_key is not None:
                    self._index.replace_file(index_key, summary)
            return changed

    def _drop_index(self) -> None:
        self._index = None
        self._generation += 1

    @property
    def index(self) -> ProjectIndex:
        """Built when first asked for after a change; empty while the scan runs (no rule
        that reads it runs then, and rebuilding it after every step would cost)."""
        with self._lock:
            if not self.index_complete:
                return ProjectIndex()
            if self._index is None:
                self._index = ProjectIndex.build(self.summaries.values())
            return self._index

    # --- checking -----------------------------------------------------------------------

    def check(self, path: Path, text: str, *, fixes: bool = False) -> list[Diagnostic]:
        """Diagnostics for a buffer; fix edits only when asked (code actions need them).

        Without fixes, an open document is re-checked incrementally: only its top-level
        definitions that changed since the last check are analysed again.
        """
        config = self.config_for(path)
        if not fixes:
            key = os.path.abspath(path)
            checker = self._incremental.setdefault(key, IncrementalChecker())
            with self._lock:
                index = self.index
                generation = self._generation
                others = self._version - self._own_versions.get(key, 0)
            try:
                return checker.check(
                    text,
                    path=str(path),
                    config=config,
                    rules=self.rules(),
                    index=index,
                    relative_path=config.relative(path),
                    index_version=(others, generation),
                )
            finally:
                if len(text) > LARGE_BUFFER:
                    pyast.forget()
        return check_source(
            text,
            path=str(path),
            config=config,
            rules=self.rules(),
            index=self.index,
            relative_path=config.relative(path),
            fixes=fixes,
        )

    def rules(self) -> list[type[Rule]]:
        """Every rule, or only those that do not read the index while it is incomplete."""
        rules = list(all_rules().values())
        return rules if self.index_complete else [r for r in rules if not r.NEEDS_INDEX]

    def closed_files(self, open_paths: Iterable[Path]) -> list[Path]:
        """The indexed files that are not open, in a stable order."""
        opened = {os.path.abspath(p) for p in open_paths}
        with self._lock:
            return sorted(Path(k) for k in self.summaries if k not in opened)

    def check_file(self, path: Path) -> tuple[list[Diagnostic], str] | None:
        """The diagnostics of a file as it is on disk, and its text; ``None`` if it cannot
        be read (its summary already says why, and it has no lines to point at)."""
        try:
            text = read_source(path).text
        except SourceError:
            return None
        config = self.config_for(path)
        found = check_source(
            text,
            path=str(path),
            config=config,
            rules=self.rules(),
            index=self.index,
            relative_path=config.relative(path),
        )
        pyast.forget(text)
        return found, text

    def fix_all(self, path: Path, text: str) -> str:
        config = self.config_for(path)
        return fix_source(
            text,
            path=str(path),
            config=config,
            rules=self.rules(),
            index=self.index,
            relative_path=config.relative(path),
        ).source


def _facts_digest(summary: Summary) -> str:
    """The digest of what other files can see of a file (``FileSummary.public_facts``)."""
    if isinstance(summary, EncodedSummary):
        return summary.facts_digest
    return summary.facts_digest()
