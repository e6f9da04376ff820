"""The workspace: one project as every front end sees it, built in one place.

The command (:class:`~ivycheck.checker.run.runner.Runner`), the flake8 plugin and the
language server all resolve configuration, project roots, files, the result cache and the
project index through a :class:`Projects`, and check a text through it; none of them
puts those together itself. So a file gets the same findings whichever front end asks.

**Configuration.** The nearest configuration file above a path
(:func:`~ivycheck.checker.project.config.find_config`, cached per folder), or the one named
with ``--config``, with the front end's overrides on top (command-line selectors, editor
settings); validated against the registry's rule codes. A workspace made
``tolerant`` (the editor's) keeps working through a broken configuration file: it uses
that root's last good configuration (defaults if none) and records a
:class:`~ivycheck.checker.run.config_problems.ConfigProblem` for the front end to show.

**Roots and the index.** A file is checked against the index of its *project root*
(:func:`~ivycheck.checker.run.indexing.index_roots`: the configuration's folder, else the
nearest ``pyproject.toml``/``setup.py``/``setup.cfg``/``.git`` folder, else the top-level
package), so that every front end reports the same findings for a file whatever folder it
was started in. A run builds the index of each of its roots (:meth:`Projects.build_index`,
over the runner's process pool) and checks a file against its own root's only
(:meth:`Projects.by_root`): two projects named in one run never see each other's files
(the index keys summaries by the path relative to the root); the language server keeps one :class:`Scope` per root,
summarized a few files at a time (:meth:`Projects.scan_step`) from the on-disk cache where
a file's ``stat`` matches, and kept current from unsaved buffers and file events
(:meth:`Projects.update`), which say when other files may see something new. Summaries are
shared by scopes (a summary depends on the file and its configuration, not on the root
indexing it). A configuration change drops every summary and scope (parts and relative
paths come from the configuration) and scans again.
"""

from __future__ import annotations

import ast
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ivycheck.checker.base import trees
from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.file_stamp import FileStamp, file_stamp
from ivycheck.checker.base.trees import KeptTrees
from ivycheck.checker.core.engine import FixOutcome, check_source, fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Rule
from ivycheck.checker.project.config import (
    CONFIG_FILE_NAMES,
    Config,
    ConfigError,
    Overrides,
    find_config,
    load_config_file,
)
from ivycheck.checker.project.discovery import ProjectFiles, discover
from ivycheck.checker.project.index import EncodedSummary, ProjectIndex
from ivycheck.checker.project.layout import summarize_file
from ivycheck.checker.project.roots import contains
from ivycheck.checker.project.summary import FileSummary, FunctionMemo
from ivycheck.checker.run.cache import ResultCache, cache_directory
from ivycheck.checker.run.config_problems import ConfigProblem, problem_file
from ivycheck.checker.run.indexing import (
    Mapper,
    build_index,
    in_process,
    index_roots,
    summarize_files,
)

Summary = FileSummary | EncodedSummary
"""Summaries read from disk stay encoded (decoded when a rule asks); a buffer's is made
in the clear."""

SCAN_CHUNK = 8
"""Files summarized between two looks at the clock (a file takes about 15 ms)."""

LARGE_BUFFER = 1_000_000
"""Characters above which a buffer's parsed tree is dropped right after its check."""


class RootShare(NamedTuple):
    """The part of a run under one project root (:meth:`Projects.by_root`)."""

    root: Path
    files: ProjectFiles
    """The files checked under ``root``: all checked against ``root``'s index."""
    given: list[Path]
    """The paths given to the run that lie under ``root``."""


@dataclass(frozen=True)
class RootIndexes:
    """The index of each project root of a run over paths (:meth:`Projects.build_indexes`)."""

    by_root: dict[Path, ProjectIndex]

    def for_path(self, path: Path) -> ProjectIndex:
        """The index of the root ``path`` lies under. A path under none (standard input
        read from another folder) gets the first root's, as a run over the first path
        gives it: the text is checked as a file of that project."""
        for root, index in self.by_root.items():
            if contains(root, path):
                return index
        return next(iter(self.by_root.values()), ProjectIndex())


@dataclass
class Scope:
    """One project root: the files its index covers, and that index once all are read."""

    root: Path
    cache: ResultCache
    files: set[str]
    """Absolute paths of the Python files discovery finds under ``root``."""
    pending: list[ProjectFiles]
    discovered: bool = True
    """Whether ``files`` holds what discovery finds. A scope made for a document's check
    is not walked there: its first scan step walks it (:meth:`Projects.scope_for`)."""
    summarized: int = 0
    """Files of the first scan summarized so far (its progress, with ``len(files)``)."""
    complete: bool = False
    """Whether every file has been summarized once. Until then a check runs only the
    rules that do not read the index: a half-built index would make the cross-file rules
    report what the files not yet read would refute."""
    index: ProjectIndex | None = None
    version: int = 0
    """How often a file's public facts changed in this scope."""
    own_versions: dict[str, int] = field(default_factory=dict)
    """The same per file: the rest is what *other* files changed."""
    generation: int = 0
    """Bumped whenever the index is thrown away: cached per-document results keyed on it
    are then stale. (``id()`` of the index is no key: CPython reuses a freed object's id.)"""
    digest: tuple[tuple[int, int], str] | None = None
    """The index digest, with the (generation, version) it was computed at."""

    def covers(self, path: Path) -> bool:
        directory = Path(os.path.abspath(path)).parent
        return directory == self.root or self.root in directory.parents


class Projects:
    """Configuration, roots, files, cache and index of the projects a front end meets."""

    def __init__(
        self,
        overrides: Overrides | None = None,
        *,
        config_file: Path | None = None,
        use_cache: bool = True,
        tolerant: bool = False,
    ) -> None:
        self.overrides = overrides or Overrides()
        self.use_cache = use_cache
        self.tolerant = tolerant
        """Keep going on a broken configuration file (the editor) instead of raising."""
        self.summaries: dict[str, Summary] = {}
        self.scopes: dict[Path, Scope] = {}
        self._folders: list[Path] = []
        """Folders given to :meth:`begin_scan` whose scopes are not made yet."""
        self.problems: list[str] = []
        """Discovery problems not yet reported."""
        self.config_problems: dict[Path, ConfigProblem] = {}
        """Configuration files that could not be used, by file (``tolerant`` only)."""
        self._lock = threading.RLock()
        self._configs: dict[Path, Config] = {}
        self._applied: dict[int, tuple[Config, Config]] = {}
        self._by_directory: dict[str, Config] = {}
        self._roots: dict[str, Path] = {}
        """Project root by directory (finding one reads configuration files)."""
        self._function_memos: dict[str, FunctionMemo] = {}
        self._buffer_trees: dict[str, tuple[str, ast.Module]] = {}
        """Per open document, its last text's tree, parsed when it was summarized
        (:meth:`update`) and handed to its check (:meth:`check`): one parse a keystroke."""
        """Per buffer given to :meth:`update`, its last text's function summaries."""
        self._facts: dict[str, tuple[Summary, object]] = {}
        """Per file, what other files see of its summary in ``summaries`` (made once):
        see :meth:`_same_facts`."""
        self.files_read = 0
        """Files the scans summarized (from the cache or not), since this was made."""
        self._stamps: dict[str, FileStamp | None] = {}
        """Per file read from disk into ``summaries``, its ``stat`` taken just before the
        read (``None``: it could not be read): :meth:`stale_files` compares them."""
        self._last_good: dict[Path, Config] = {}
        """The last configuration that loaded, by root: a typo made while editing
        ``pyproject.toml`` must not switch every rule back to its defaults meanwhile."""
        self._explicit = (
            self.overrides.apply(load_config_file(config_file, all_rules().keys()))
            if config_file
            else None
        )

    # --- configuration ------------------------------------------------------------------

    @property
    def rules(self) -> list[type[Rule]]:
        """Every rule the registry knows (what a configuration enables is the engine's)."""
        return list(all_rules().values())

    def set_overrides(self, overrides: Overrides) -> None:
        """New settings from the front end (the editor's): applied from the next lookup."""
        with self._lock:
            self.overrides = overrides
            self._applied.clear()
            self._by_directory.clear()

    def config_for(self, path: Path) -> Config:
        """The configuration ``path`` is checked under, overrides applied; the same object
        for every path under one configuration, so what is computed per configuration (a
        result key) is computed once."""
        if self._explicit is not None:
            return self._explicit
        with self._lock:
            try:
                base = find_config(path, all_rules().keys(), self._configs)
            except ConfigError as error:
                if not self.tolerant:
                    raise
                base = self._fallback(path, error)
            else:
                if self.tolerant and all(
                    p.file.parent != base.root for p in self.config_problems.values()
                ):
                    self._last_good[base.root] = base  # not a fallback cached for a directory
            applied = self._applied.get(id(base))
            if applied is None or applied[0] is not base:
                applied = self._applied[id(base)] = (base, self.overrides.apply(base))
            return applied[1]

    def config_for_file(self, path: Path) -> Config:
        """``config_for`` once per directory: cheap for the many files of one folder."""
        directory = os.path.dirname(path)
        with self._lock:
            found = self._by_directory.get(directory)
            if found is None:
                found = self._by_directory[directory] = self.config_for(path)
            return found

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
        """Configuration files changed: forget them, and everything made under them (file
        parts and relative paths are the configuration's; cached summaries that no longer
        match it are made again by the next scan)."""
        with self._lock:
            self._configs.clear()
            self._applied.clear()
            self._by_directory.clear()
            self._roots.clear()
            self.config_problems.clear()
            self.scopes.clear()
            self.summaries.clear()
            self._function_memos.clear()
            self._facts.clear()
            self._buffer_trees.clear()
            self._stamps.clear()

    def config_stamps(self) -> dict[str, FileStamp | None]:
        """The ``stat`` of every configuration file the configurations in use were looked
        for at (``None`` where there is none): equal at two moments, no configuration
        changed in between (:meth:`forget_configs` is due otherwise)."""
        with self._lock:
            folders = list(self._configs)
        return {
            str(folder / name): file_stamp(folder / name)
            for folder in folders
            for name in CONFIG_FILE_NAMES
        }

    @staticmethod
    def configs_changed(stamps: dict[str, FileStamp | None]) -> bool:
        """Whether a configuration file of ``stamps`` (:meth:`config_stamps` at an earlier
        moment) changed since. Only those: the folders looked at since (a scan going on)
        were read as they are now."""
        return any(file_stamp(path) != stamp for path, stamp in stamps.items())

    def close(self, path: Path) -> None:
        """A document was closed: drop what was kept for it."""
        with self._lock:
            self._buffer_trees.pop(os.path.abspath(path), None)
        self._function_memos.pop(os.path.abspath(path), None)

    # --- a run over paths ---------------------------------------------------------------

    def discover(self, paths: Iterable[Path]) -> ProjectFiles:
        """The Python files under ``paths``, each with its configuration."""
        return discover(list(paths), self.config_for, self.config_for_file)

    def roots_of(self, paths: Iterable[Path]) -> list[Path]:
        """The project roots the index of a run over ``paths`` covers."""
        return index_roots(list(paths), self.config_for, self._explicit is not None)

    def by_root(self, checked: ProjectFiles, given: Iterable[Path]) -> list[RootShare]:
        """The files of a run over the paths ``given`` (``checked``, discovered from them),
        grouped by the root of :meth:`roots_of` each lies under, with the paths given
        under that root; in the order the files come.

        Invariant: a file is checked against the index of its own root only. The index
        keys summaries by the path relative to their root, so two projects of the same
        layout (two checkouts of one repository) checked in one run would overwrite each
        other's summaries in one index, and answer one's questions with the other's
        files (``KeyError`` mid-rule, findings that belong to neither)."""
        named = list(given)
        roots = self.roots_of(named)
        shares: dict[Path, ProjectFiles] = {}
        for path in checked.files:
            root = next((r for r in roots if contains(r, path)), None) or self.root_of(path)
            share = shares.setdefault(root, ProjectFiles([], {}, []))
            share.files.append(path)
            share.configs[path] = checked.configs[path]
        return [
            RootShare(root, files, [p for p in named if contains(root, p)])
            for root, files in shares.items()
        ]

    def cache_at(self, root: Path) -> ResultCache:
        """The result cache of the project at ``root`` (none without ``use_cache``)."""
        return ResultCache(cache_directory(root) if self.use_cache else None)

    def build_index(
        self,
        checked: ProjectFiles,
        roots: list[Path],
        cache: ResultCache,
        parallel: Mapper | None = None,
        given: Iterable[Path] = (),
        checked_early: dict[str, tuple[str, list[Diagnostic]]] | None = None,
        edits: bool = True,
        kept: KeptTrees | None = None,
        encoded: bool = True,
    ) -> ProjectIndex:
        """The index of every file under ``roots`` (``checked`` already discovered from
        the paths ``given``), from ``cache`` where it can; empty when no active rule reads
        it. When the paths given are the roots themselves, their files are not walked
        again. ``checked_early``, ``edits``, ``kept`` and ``encoded``: see
        :func:`~ivycheck.checker.run.indexing.build_index`."""
        named = list(given)
        walked = {os.path.abspath(p) for p in named if os.path.isdir(p)}
        same = len(walked) == len(named) > 0 and walked == {os.path.abspath(r) for r in roots}
        return build_index(
            checked,
            roots,
            self.config_for,
            cache,
            all_rules().values(),
            parallel or in_process,
            self.config_for_file,
            roots_discovered=checked if same else None,
            checked_early=checked_early,
            edits=edits,
            kept=kept,
            encoded=encoded,
        )

    def build_indexes(
        self, checked: ProjectFiles, given: Iterable[Path], cache: ResultCache
    ) -> RootIndexes:
        """One index per root of the paths ``given`` (``checked``, discovered from them),
        built in this process (:meth:`by_root`, :meth:`build_index`)."""
        return RootIndexes(
            {
                share.root: self.build_index(share.files, [share.root], cache, given=share.given)
                for share in self.by_root(checked, given)
            }
        )

    def project_index(self, path: Path) -> ProjectIndex:
        """The index of ``path``'s project (a file or a folder, which need not exist), as
        a run over it builds it, cache included: one walk of the project root."""
        roots = [self.root_of(path)]
        cache = self.cache_at(roots[0])
        files = [] if path.is_dir() else [path]
        index = self.build_index(
            ProjectFiles(files, {path: self.config_for_file(path)}, []), roots, cache
        )
        cache.save()
        return index

    def index_with_text(
        self, path: Path, text: str, *, whole_project: bool, config: Config | None = None
    ) -> ProjectIndex:
        """The index as a run over ``path`` on disk builds it, with ``text`` in place of
        the file: a piped buffer gets the same cross-file findings as the file. Without
        ``whole_project`` (no name for the text), the text alone."""
        config = config or self.config_for(path)
        relative = config.relative(path)
        summary = summarize_file(text, relative, config.part_of(relative))
        if not whole_project:
            return ProjectIndex.build([summary])
        index = self.project_index(path)
        index.replace_file(summary.path, summary)
        return index

    def check_text(
        self,
        path: Path,
        text: str,
        index: ProjectIndex,
        *,
        name: str | None = None,
        config: Config | None = None,
        edits: bool = True,
    ) -> list[Diagnostic]:
        """The diagnostics of ``text`` as the file at ``path`` (under its configuration
        unless another is given), reported under ``name``; fixes with their text edits
        unless ``edits`` is false (``check_source``)."""
        config = config or self.config_for(path)
        return check_source(
            text,
            path=name or str(path),
            config=config,
            rules=self.rules,
            index=index,
            relative_path=config.relative(path),
            edits=edits,
        )

    def fix_text(
        self,
        path: Path,
        text: str,
        index: ProjectIndex,
        *,
        unsafe: bool = False,
        name: str | None = None,
        config: Config | None = None,
    ) -> FixOutcome:
        """``text`` with every applicable fix applied, and what is left."""
        config = config or self.config_for(path)
        return fix_source(
            text,
            path=name or str(path),
            config=config,
            rules=self.rules,
            index=index,
            relative_path=config.relative(path),
            unsafe=unsafe,
        )

    # --- scopes -------------------------------------------------------------------------

    def root_of(self, path: Path) -> Path:
        """The project root the command would index for ``path``."""
        absolute = os.path.abspath(path)
        directory = absolute if os.path.isdir(absolute) else os.path.dirname(absolute)
        with self._lock:
            found = self._roots.get(directory)
            if found is None:
                try:
                    found = index_roots(
                        [Path(absolute)], self.config_for, self._explicit is not None
                    )[0]
                except ConfigError:  # a broken configuration file: its folder is the root
                    found = self.config_for(Path(absolute)).root
                self._roots[directory] = found
            return found

    def scope_for(self, path: Path, discovered: ProjectFiles | None = None) -> Scope:
        """The scope of ``path``'s project root; a new one's files are found and then
        summarized by :meth:`scan_step`. ``discovered``: the root's files, when the
        caller walked them already.

        A new scope is not walked here: a document's check asks for its scope first, and
        the walk of a project (0.15-0.4 s for the 755-file Ivy snapshot) is no part of its
        first findings, which need no index (:meth:`rules_for`)."""
        root = self.root_of(path)
        with self._lock:
            scope = self.scopes.get(root)
            if scope is None:
                cache = self.cache_at(root)  # where the command keeps this root's cache
                scope = self.scopes[root] = Scope(root, cache, set(), [], discovered=False)
            if discovered is not None and not scope.discovered:
                self._discovered(scope, discovered)
            return scope

    def _discovered(self, scope: Scope, project: ProjectFiles) -> None:
        """``project`` is what discovery found under ``scope.root``: its files to index.
        Under the lock."""
        scope.files |= {os.path.abspath(p) for p in project.files}
        scope.pending.append(project)
        scope.discovered = True
        self.problems += [f"{p.path}: {p.message}" for p in project.problems]

    def _scope_folder(self, folder: Path) -> None:
        """The scopes of the files under ``folder`` (a workspace folder, an open file).

        Invariant: one root per file, the one the command gives that file
        (:meth:`root_of`), whichever folder the editor opened. A folder is no root of its
        own: a checkout of a package folder without a marker (``ws/ivy/__init__.py``, no
        ``pyproject.toml``) has its files rooted at the package ``ws/ivy``; scoping the
        folder ``ws`` as well indexed every file twice and wrote a second cache beside the
        package's."""
        root = self.root_of(folder)
        if root in self.scopes:
            return
        if Path(os.path.abspath(folder)) != root or not os.path.isdir(folder):
            self.scope_for(folder)  # a file, or a folder inside its project: its root's
            return
        project = discover([root], self.config_for)
        by_root: dict[Path, list[Path]] = {}
        for file in project.files:
            by_root.setdefault(self.root_of(file), []).append(file)
        if set(by_root) in ({root}, set()):
            self.scope_for(root, project)
            return
        self.problems += [f"{p.path}: {p.message}" for p in project.problems]
        for file_root, files in by_root.items():
            inside = file_root == root or root in file_root.parents
            own = ProjectFiles(files, {f: project.configs[f] for f in files}, [])
            self.scope_for(file_root, own if inside else None)

    def scan(self, folders: Iterable[Path]) -> list[str]:
        """Summarize every Python file of the projects of ``folders``; problems to log."""
        problems = self.begin_scan(folders)
        while not self.scan_step(float("inf")):
            pass
        return problems + self.begin_scan(())

    def begin_scan(self, folders: Iterable[Path]) -> list[str]:
        """Index the projects of ``folders``: :meth:`scan_step` finds their files (see
        the module doc), then summarizes them. Returns the problems found so far, to log.

        Nothing is walked here: the server's first step may wait for a document's
        check, whose findings need no index."""
        with self._lock:
            self._folders.extend(Path(folder) for folder in folders)
            problems, self.problems = self.problems, []
        return problems

    def scan_progress(self) -> tuple[int, int]:
        """Files summarized and files to summarize, over the scopes still scanned."""
        with self._lock:
            scanned = [scope for scope in self.scopes.values() if not scope.complete]
            return sum(s.summarized for s in scanned), sum(len(s.files) for s in scanned)

    def scan_first(self, path: Path) -> None:
        """Summarize the project of ``path`` (an open document) before the others."""
        with self._lock:
            scope = self.scopes.get(self.root_of(path))
            if scope is not None and (scope.pending or not scope.discovered):
                self.scopes = {scope.root: scope, **self.scopes}

    @property
    def scanning(self) -> bool:
        with self._lock:
            return bool(self._folders) or any(
                scope.pending or not scope.discovered for scope in self.scopes.values()
            )

    def scan_step(self, budget: float) -> bool:
        """Summarize pending files for about ``budget`` seconds; whether every scope is
        complete.

        The server runs one step at a time on its only checking thread, so a check
        asked for meanwhile waits for one step, not for the whole workspace. Summaries
        made here are saved to the cache at the end, for the next start and the command.
        """
        deadline = time.perf_counter() + budget
        while time.perf_counter() < deadline:
            with self._lock:
                folder = self._folders.pop(0) if self._folders else None
            if folder is not None:
                self._scope_folder(folder)
                continue
            with self._lock:
                scope = next(
                    (s for s in self.scopes.values() if s.pending or not s.discovered), None
                )
            if scope is None:
                return True
            if not scope.discovered:
                project = discover([scope.root], self.config_for)
                with self._lock:
                    if self.scopes.get(scope.root) is scope and not scope.discovered:
                        self._discovered(scope, project)
                continue
            project = scope.pending[0]
            chunk, rest = project.files[:SCAN_CHUNK], project.files[SCAN_CHUNK:]
            part = ProjectFiles(chunk, {path: project.configs[path] for path in chunk}, [])
            # A cached summary made under another configuration is made again here.
            stamps = {os.path.abspath(p): file_stamp(p) for p in chunk}
            found = summarize_files(part, scope.cache)
            with self._lock:
                if self.scopes.get(scope.root) is not scope:
                    continue  # dropped by a configuration change meanwhile
                for path, digest, summary, _ in found:
                    key = os.path.abspath(path)
                    if digest is not None and key not in self.summaries:
                        self.summaries[key] = summary  # not a buffer's, summarized meanwhile
                        self._stamps[key] = stamps.get(key)
                scope.summarized += len(found)
                self.files_read += len(found)
                if rest:
                    scope.pending[0] = ProjectFiles(rest, project.configs, [])
                    continue
                scope.pending.pop(0)
                if scope.pending:
                    continue
                scope.complete = True
                self._drop_index(scope)
            scope.cache.save()
        return not self.scanning

    def _summary_from_disk(self, path: Path) -> Summary | None:
        """``None`` for a file that cannot be read (as if it were not there)."""
        project = ProjectFiles([path], {path: self.config_for(path)}, [])
        [(_, digest, summary, _)] = summarize_files(project, ResultCache(None))
        return summary if digest is not None else None

    def update(self, path: Path, text: str | None, *, tree: ast.Module | None = None) -> bool:
        """New text for a file (``None``: read it from disk, or it was deleted).

        Returns whether other files may now get different diagnostics. ``tree``: the
        text's tree when the caller parsed it already (the editor's buffer, parsed once
        per version and handed to the check as well: :meth:`check`).
        """
        key = os.path.abspath(path)
        if text is None:
            stamp = file_stamp(path)
            summary: Summary | None = self._summary_from_disk(path) if stamp else None
            with self._lock:
                self._stamps[key] = stamp
        else:
            with self._lock:
                self._stamps.pop(key, None)  # the index holds a buffer, not the file
            config = self.config_for(path)
            relative = config.relative(path)
            memo = self._function_memos.setdefault(key, {})
            if tree is None:
                tree = trees.parse_or_none(text)
            summary = summarize_file(text, relative, config.part_of(relative), memo=memo, tree=tree)
            if tree is not None:
                with self._lock:
                    self._buffer_trees[key] = (text, tree)
        with self._lock:
            previous = self.summaries.get(key)
            if summary is None:
                self.summaries.pop(key, None)
            else:
                self.summaries[key] = summary
            changed = (previous is None) != (summary is None) or (
                previous is not None
                and summary is not None
                and not self._same_facts(key, previous, summary)
            )
            if summary is None:
                self._facts.pop(key, None)
            for scope in self.scopes.values():
                self._update_scope(scope, key, path, previous, summary, changed)
            return changed

    def stale_files(self) -> list[Path]:
        """The indexed files whose ``stat`` differs from the one taken as they were read
        (changed or deleted since), and those read from a buffer: to read again before
        answering a client that was not there to tell of the change (the shared language
        server's next client). A ``stat`` a file, about 5 ms for 755 files; as the cache,
        a change that keeps the size, the modification time and the inode is not seen.
        A file a scan under way has not read yet is none of them: the scan reads it, in
        steps that let documents go first (a client that left during the first scan had
        every such file read again at once, before the next client's first answer)."""
        with self._lock:
            known: set[str] = set().union(*(scope.files for scope in self.scopes.values()))
            unread = {
                key
                for scope in self.scopes.values()
                for part in scope.pending
                for path in part.files
                if (key := os.path.abspath(path)) not in self.summaries
            }
            stamps = dict(self._stamps)
        return [
            Path(key)
            for key in sorted(known - unread)
            if key not in stamps or file_stamp(key) != stamps[key]
        ]

    def unseen_files(self) -> list[Path]:
        """Python files under the complete scopes' roots that their index does not know
        (created while nobody watched): a walk of each root, as its first scan made.
        A file of a project nested under a root is its own root's (:meth:`root_of`), as
        in the first scan, never the outer one's: a nested project made meanwhile gets
        a scope of its own, its files pending for :meth:`scan_step` (:attr:`scanning`),
        as the first scan would have given it (it was left unindexed)."""
        with self._lock:
            scopes = [scope for scope in self.scopes.values() if scope.complete]
        found: list[Path] = []
        for scope in scopes:
            project = discover([scope.root], self.config_for)
            with self._lock:
                new = [p for p in project.files if os.path.abspath(p) not in scope.files]
            nested: dict[Path, list[Path]] = {}
            for path in new:
                root = self.root_of(path)
                if root == scope.root:
                    found.append(path)
                elif root not in self.scopes:
                    nested.setdefault(root, []).append(path)
            for root, files in nested.items():
                configs = {f: project.configs[f] for f in files}
                self.scope_for(root, ProjectFiles(files, configs, []))
        return found

    def _same_facts(self, key: str, previous: Summary, summary: Summary) -> bool:
        """Whether other files see the same of the file at ``key`` in both summaries.

        A keystroke compares the buffer's new summary with the one before, both made in
        the clear: their ``public_facts`` compare as tuples of strings and booleans, which
        stops at the first difference, where hashing the ``repr`` of both was 6 % of the
        server's work per edit (``benchmarks/lsp_latency.py``). Against a summary read
        from the cache (encoded: only its digest is at hand), the digests compare."""
        if isinstance(previous, EncodedSummary) or isinstance(summary, EncodedSummary):
            return _facts_digest(previous) == _facts_digest(summary)
        return self._public_facts(key, previous) == self._public_facts(key, summary)

    def _public_facts(self, key: str, summary: FileSummary) -> object:
        """``summary.public_facts()``, remembered for the latest summary of ``key``."""
        known = self._facts.get(key)
        if known is not None and known[0] is summary:
            return known[1]
        facts = summary.public_facts()
        self._facts[key] = (summary, facts)
        return facts

    def _update_scope(
        self,
        scope: Scope,
        key: str,
        path: Path,
        previous: Summary | None,
        summary: Summary | None,
        changed: bool,
    ) -> None:
        if key not in scope.files:
            if summary is None or not scope.covers(path) or self._excluded(path):
                return
            scope.files.add(key)  # a file created under the root
        elif summary is None:
            scope.files.discard(key)
        if changed:
            scope.version += 1
            scope.own_versions[key] = scope.own_versions.get(key, 0) + 1
        if scope.index is not None:
            index_key = previous.path if previous is not None else None
            if summary is not None and index_key is None:
                index_key = summary.path
            if index_key is not None:
                scope.index.replace_file(index_key, summary)

    def _excluded(self, path: Path) -> bool:
        config = self.config_for(path)
        return config.is_excluded(config.relative(path))

    def _drop_index(self, scope: Scope) -> None:
        scope.index = None
        scope.generation += 1

    def index_of(self, scope: Scope) -> ProjectIndex:
        """Built when first asked for after a change; empty while the scope is scanned (no
        rule that reads it runs then, and rebuilding it after every step would cost)."""
        with self._lock:
            if not scope.complete:
                return ProjectIndex()
            if scope.index is None:
                scope.index = ProjectIndex.build(
                    summary for key in scope.files if (summary := self.summaries.get(key))
                )
            return scope.index

    def index_digest(self, scope: Scope) -> str:
        """The digest of the scope's index (empty while it is scanned), computed once per
        state of the index."""
        with self._lock:
            if not scope.complete:
                return ""
            state = (scope.generation, scope.version)
            if scope.digest is None or scope.digest[0] != state:
                scope.digest = (state, self.index_of(scope).digest())
            return scope.digest[1]

    def indexed(self, path: Path) -> bool:
        """Whether the index of ``path``'s project is complete (its cross-file rules run)."""
        return self.scope_for(path).complete

    def index_for(self, path: Path) -> ProjectIndex:
        return self.index_of(self.scope_for(path))

    # --- checking -----------------------------------------------------------------------

    def check(self, path: Path, text: str, *, fixes: bool = False) -> list[Diagnostic]:
        """Diagnostics for a buffer; fix edits only when asked (code actions need them).
        The same engine check as every other door, on the tree :meth:`update` parsed for
        the same text when it did."""
        config = self.config_for(path)
        scope = self.scope_for(path)
        key = os.path.abspath(path)
        with self._lock:
            index = self.index_of(scope)
            parsed = self._buffer_trees.get(key)
            if parsed is not None and len(text) > LARGE_BUFFER:
                del self._buffer_trees[key]  # a large buffer's tree outlives no check
        tree = parsed[1] if parsed is not None and parsed[0] == text else None
        return check_source(
            text,
            path=str(path),
            config=config,
            rules=self.rules_for(scope),
            index=index,
            relative_path=config.relative(path),
            fixes=fixes,
            tree=tree,
        )

    def rules_for(self, scope: Scope) -> list[type[Rule]]:
        """Every rule; while the index is incomplete, only those whose findings do not
        depend on it (the index may still refine their message: ``INDEX_REFINES_ONLY``)."""
        rules = list(all_rules().values())
        if scope.complete:
            return rules
        return [r for r in rules if not r.NEEDS_INDEX or r.INDEX_REFINES_ONLY]

    def closed_files(self, open_paths: Iterable[Path], folders: Iterable[Path]) -> list[Path]:
        """The indexed files under ``folders`` (the workspace's) that are not open, in a
        stable order. A project indexed for a document opened from elsewhere (a library
        in site-packages) lends its index to that document, not its files to the
        workspace's diagnostics."""
        opened = {os.path.abspath(p) for p in open_paths}
        prefixes = tuple(os.path.join(os.path.abspath(f), "") for f in folders)
        with self._lock:
            known: set[str] = set().union(*(scope.files for scope in self.scopes.values()))
        # Sorted as strings (Paths compare part by part in Python: 13 ms for the Ivy
        # snapshot, on the server's event loop at every workspace pull).
        closed = sorted(k for k in known if k not in opened and k.startswith(prefixes))
        return [Path(k) for k in closed]

    def fix_all(self, path: Path, text: str) -> str:
        config = self.config_for(path)
        scope = self.scope_for(path)
        return fix_source(
            text,
            path=str(path),
            config=config,
            rules=self.rules_for(scope),
            index=self.index_of(scope),
            relative_path=config.relative(path),
        ).source


def _facts_digest(summary: Summary) -> str:
    """The digest of what other files can see of a file (``FileSummary.public_facts``)."""
    if isinstance(summary, EncodedSummary):
        return summary.facts_digest
    return summary.facts_digest()
