"""A whole run: discover files, build the index, check (or fix) every file, in parallel.

The index covers the whole project (:func:`~ivycheck.checker.run.indexing.index_roots`), not
only the files given, so a file's findings do not depend on the paths it was named by;
only the files under the given paths are checked and reported. A run over several
projects builds one index per project root and checks each file against its own root's
(:meth:`~ivycheck.checker.run.projects.Projects.by_root`), so a file's findings do not
depend on the other projects named either.

Two phases, each over a process pool: summaries for the index (``ast``, cached; skipped
when no active rule reads the index), then the rules (libcst, cached per file under a key
that includes the index digest only when a rule reading it is active). Workers get the index once, at start-up. A worker that dies
(a segfault in a native extension, say) costs only the files it had: they are retried
one by one in a fresh process, and a file that kills that one too is reported as IVY999.
"""

from __future__ import annotations

import contextlib
import gc
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

from ivycheck import __version__
from ivycheck.checker.base import collector
from ivycheck.checker.base.diagnostics import Diagnostic, Severity
from ivycheck.checker.base.isolation import on_deep_stack, submit_to_deep_stack
from ivycheck.checker.base.sourcefile import (
    SourceError,
    SourceFile,
    read_source,
    too_large_on_disk,
    write_source_in_place,
)
from ivycheck.checker.base.trees import KeptTrees
from ivycheck.checker.core.engine import (
    INTERNAL_ERROR,
    SYNTAX_ERROR,
    check_source,
    fix_source,
    is_applicable,
    too_large_finding,
)
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Rule
from ivycheck.checker.project.config import (
    Config,
    ConfigError,
    Overrides,
)
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.run.cache import CacheEntry, ResultCache, cache_directory, stat_key
from ivycheck.checker.run.indexing import needs_index
from ivycheck.checker.run.projects import Projects

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[str, int, int], None]
"""Told ``(phase, done, total)`` as files are done: ``("indexing", 12, 756)``, then
``("checking", 312, 756)``; the command draws it on a terminal."""


@dataclass(frozen=True)
class RunOptions:
    paths: Sequence[Path] = (Path("."),)
    config_file: Path | None = None
    overrides: Overrides = field(default_factory=Overrides)
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    jobs: int = 0
    use_cache: bool = True
    stdin_text: str | None = None
    stdin_filename: str | None = None
    fix_edits: bool = True
    """Whether fixes carry their text edits (the JSON and SARIF reports show them; the text
    reports show only that a fix exists): rendering them is the only libcst work of a run
    (``Rule.fix``). ``--fix`` and ``--diff`` always make them."""
    progress: Progress | None = None


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    fixed: int = 0
    """Problems this run fixed: in files it wrote."""
    already_fixed: int = 0
    """Problems this run would have fixed but found fixed on disk when it came to write:
    another writer (a concurrent ``--fix``) wrote the same fixed text first."""
    diffs: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    stdin_output: str | None = None
    cache_hits: int = 0


@dataclass(frozen=True)
class _Task:
    path: str
    relative: str
    config: Config
    fix: bool
    unsafe: bool
    edits: bool = True
    kept: KeptTrees | None = None
    """The run's kept trees when this process summarized the file (one job)."""


@dataclass
class _Outcome:
    path: str
    diagnostics: list[Diagnostic]
    source: SourceFile | None = None
    fixed_text: str | None = None
    applied: int = 0
    problems: list[str] = field(default_factory=list)
    unfixed_diagnostics: list[Diagnostic] = field(default_factory=list)
    """With a fix: the diagnostics of the file as it is, in case the fix is not written."""


# --- worker side -----------------------------------------------------------------------

_worker_index = ProjectIndex()


def _init_worker(index: ProjectIndex, decode: bool = True) -> None:
    """Decode the index's summaries (unless only a few files are to be checked here) and
    keep them, living as long as the process, out of every later garbage collection.
    Invariant: no collection walks the index, so the time per line does not grow with
    the size of the tree (``benchmarks/lint_throughput.py --sizes``)."""
    global _worker_index
    _worker_index = index
    if decode:
        index.files.decode_all()
    gc.freeze()


def _rules() -> list[type[Rule]]:
    return list(all_rules().values())


def _check_one(task: _Task) -> _Outcome:
    """One file, read and checked (and fixed) in a worker; one above ``max-file-size`` on
    disk already is not even read."""
    limit = task.config.max_file_size
    size = too_large_on_disk(task.path, limit)
    if size is not None:
        return _Outcome(task.path, [too_large_finding(task.path, size, limit)])
    try:
        source = read_source(Path(task.path))
    except SourceError as err:
        return _Outcome(task.path, [_file_error(task.path, str(err))])
    rules = _rules()
    tree = task.kept.take(source.text) if task.kept is not None else None
    if not task.fix or tree is not None:
        # With a fix, the first round of fix_source with the tree the summary parsed: most
        # files have nothing to fix, and are then done without a second parse.
        found = check_source(
            source.text,
            path=task.path,
            config=task.config,
            rules=rules,
            index=_worker_index,
            relative_path=task.relative,
            edits=task.edits,
            tree=tree,
        )
        if not task.fix or not any(is_applicable(d, task.unsafe) for d in found):
            return _Outcome(task.path, found, source)
    outcome = fix_source(
        source.text,
        path=task.path,
        config=task.config,
        rules=rules,
        index=_worker_index,
        relative_path=task.relative,
        unsafe=task.unsafe,
    )
    fixed = outcome.source if outcome.source != source.text else None
    # Shown instead if the fix cannot be written: the first round checked the text as it is.
    unfixed = outcome.original_diagnostics if fixed is not None else []
    return _Outcome(
        task.path, outcome.diagnostics, source, fixed, outcome.applied, outcome.problems, unfixed
    )


def _run_chunk(
    function: Callable[[T], R], chunk: list[T], advance: Callable[[int], None] | None = None
) -> list[R]:
    """``function`` over ``chunk``, the whole loop on the deep-stack thread the engine
    checks each file on (:mod:`~ivycheck.checker.base.isolation`): one hand-over to it
    per chunk, not one per file. Interrupted while it waits (Ctrl-C), this thread tells
    the loop to stop after the file it is at."""
    if on_deep_stack():
        return _run_items(function, chunk, advance, threading.Event())
    stop = threading.Event()
    future = submit_to_deep_stack(_run_items, function, chunk, advance, stop)
    try:
        while True:
            # Woken every tenth of a second: a Ctrl-C that lands just before this thread
            # starts waiting would otherwise wake it only when the whole chunk is done.
            with contextlib.suppress(TimeoutError):
                return future.result(timeout=0.1)
    except BaseException:
        stop.set()
        raise


def _run_items(
    function: Callable[[T], R],
    chunk: list[T],
    advance: Callable[[int], None] | None,
    stop: threading.Event,
) -> list[R]:
    """``function`` over ``chunk`` (until ``stop`` is set) with the cyclic collector run
    every few files instead of by allocation count. A tree is many objects, freed by
    reference counting when the file is done: invariant, no collection traverses a
    live tree while it is being checked. Cycles a rule leaves are still collected (cold
    runs in ``benchmarks/lint_throughput.py`` measure it)."""
    results = []
    with collector.paused():
        for number, item in enumerate(chunk, 1):
            if stop.is_set():
                break
            results.append(function(item))
            if advance is not None:
                advance(1)
            if number % _COLLECT_EVERY == 0:
                # What the last files left (their trees are freed by reference counting
                # already); what survives is the run's own (summaries, results, the trees
                # kept for the check), out of every later collection's way.
                gc.collect(0)
                gc.freeze()
    return results


def _file_error(path: str, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, 1, 1, SYNTAX_ERROR, message, Severity.ERROR)


# --- parallel map with crash isolation ---------------------------------------------------

_COLLECT_EVERY = 16

_DECODE_ALL_FROM = 32
"""Files checked in this process from which decoding the whole index up front pays: a
file takes about 0.1 s, decoding a 20k-function tree's summaries about 1 s."""


def _parallel_map(
    function: Callable[[T], R],
    items: list[T],
    jobs: int,
    on_crash: Callable[[T], R],
    index: ProjectIndex | None = None,
    advance: Callable[[int], None] | None = None,
) -> list[R]:
    """``[function(x) for x in items]`` over ``jobs`` processes, surviving dead workers;
    ``advance(n)`` is told each time ``n`` more items are done (in this process)."""
    if jobs <= 1 or len(items) < 4:
        if index is not None:
            _init_worker(index, decode=len(items) >= _DECODE_ALL_FROM)
        return _run_chunk(function, items, advance)
    # Imported here: a run on one core never starts a process (a sixtieth of its start-up).
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    chunk_size = max(1, min(64, len(items) // (jobs * 8) or 1))
    chunks = [items[i : i + chunk_size] for i in range(0, len(items), chunk_size)]
    results: list[list[R] | None] = [None] * len(chunks)
    shared = index if index is not None else ProjectIndex()
    decode = len(items) >= _DECODE_ALL_FROM
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(shared, decode)) as pool:
        futures: dict[Future[list[R]], int] = {
            pool.submit(_run_chunk, function, chunk): number for number, chunk in enumerate(chunks)
        }
        for future in as_completed(futures):
            number = futures[future]
            try:
                results[number] = future.result()
            except BrokenProcessPool:
                results[number] = None
            if advance is not None:
                advance(len(chunks[number]))
    output: list[R] = []
    for number, chunk in enumerate(chunks):
        chunk_result = results[number]
        if chunk_result is None:
            chunk_result = [_isolated(function, item, on_crash, shared) for item in chunk]
        output.extend(chunk_result)
    return output


def _isolated(
    function: Callable[[T], R], item: T, on_crash: Callable[[T], R], index: ProjectIndex
) -> R:
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(1, initializer=_init_worker, initargs=(index, False)) as pool:
            return pool.submit(function, item).result()
    except BrokenProcessPool:
        return on_crash(item)


# --- the run -------------------------------------------------------------------------------


class Runner:
    """One invocation of the checker over paths (or standard input)."""

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.jobs = options.jobs if options.jobs > 0 else (os.cpu_count() or 1)
        self.workspace = Projects(
            options.overrides, config_file=options.config_file, use_cache=options.use_cache
        )
        self._result_keys: dict[int, tuple[Config, ProjectIndex, str]] = {}
        self.edits = options.fix_edits or options.fix or options.diff

    def run(self) -> RunResult:
        if self.options.stdin_text is not None:
            return self._run_stdin(self.options.stdin_text)
        result = RunResult()
        workspace = self.workspace
        project = workspace.discover(self.options.paths)
        result.problems.extend(f"{p.path}: {p.message}" for p in project.problems)
        result.files = len(project.files)
        cache = workspace.cache_at(self.project_root_of(self._first_path()))
        fixing = self.options.fix or self.options.diff
        early: dict[str, tuple[str, list[Diagnostic]]] = {}
        # Summaries and kept trees hold no cycles: no automatic collection walks their
        # millions of objects while the index is built and the results are gathered (the
        # check in this process freezes them, ``_init_worker``; ``_run_chunk`` collects
        # what each file leaves).
        # Each root's files are checked against that root's index only, one root after
        # the other (``Projects.by_root``); one cache, the first path's, serves them all.
        # On one core the files that wait for the index are checked here, with the trees
        # their summaries parsed.
        kept = KeptTrees() if self.jobs == 1 else None
        with collector.paused():
            for share in workspace.by_root(project, self.options.paths):
                try:
                    index = workspace.build_index(
                        share.files,
                        [share.root],
                        cache,
                        lambda function, items, on_crash: _parallel_map(
                            function,
                            items,
                            self.jobs,
                            on_crash,
                            advance=self._counter("indexing", len(items)),
                        ),
                        given=share.given,
                        checked_early=None if fixing else early,
                        edits=self.edits,
                        kept=kept,
                        encoded=kept is None,
                    )
                    self._check(
                        share.files.files, share.files.configs, index, cache, result, early, kept
                    )
                finally:
                    if kept is not None:
                        kept.clear()
        cache.save()
        result.diagnostics.sort(key=lambda d: d.sort_key)
        return result

    def _counter(self, phase: str, total: int, done: int = 0) -> Callable[[int], None] | None:
        """``advance(n)`` for ``_parallel_map``, telling ``options.progress`` the count."""
        progress = self.options.progress
        if progress is None:
            return None
        count = [done]

        def advance(number: int) -> None:
            count[0] += number
            progress(phase, count[0], total)

        return advance

    def _first_path(self) -> Path:
        return self.options.paths[0] if self.options.paths else Path(".")

    def cache_dir(self) -> Path:
        """Where the result cache of this run lives: at the project root of the first path
        (or ``IVYCHECK_CACHE_DIR``). Invariant: inside the project checked, never beside a
        configuration named with ``--config`` that lies elsewhere (``/dev/null``), nor
        in the working directory of a run over another folder."""
        return cache_directory(self.project_root_of(self._first_path()))

    def project_root_of(self, path: Path) -> Path:
        """The root of the project ``path`` belongs to (the index covers it)."""
        return self.workspace.root_of(path)

    def _result_key(self, config: Config, index: ProjectIndex) -> str:
        """Computed once per configuration and index, never per file: the index digest
        hashes every file's facts."""
        known = self._result_keys.get(id(config))
        if known is not None and known[0] is config and known[1] is index:
            return known[2]
        rules = all_rules()
        parts = [__version__, config.digest(), ",".join(rules)]
        if needs_index([config], rules.values()):
            parts.append(index.digest())
        key = "|".join(parts)
        self._result_keys[id(config)] = (config, index, key)
        return key

    def _stored_key(self, key: str) -> str:
        """The key this run's results are stored under: findings whose fixes lack their
        text edits must not serve a run that shows them."""
        return key if self.edits else f"{key}|without-edits"

    def _serves(self, entry_key: str | None, key: str) -> bool:
        """Whether cached results stored under ``entry_key`` are this run's (with edits,
        they serve a run without too)."""
        return entry_key == self._stored_key(key) or (not self.edits and entry_key == key)

    def _check(
        self,
        files: list[Path],
        configs: dict[Path, Config],
        index: ProjectIndex,
        cache: ResultCache,
        result: RunResult,
        early: dict[str, tuple[str, list[Diagnostic]]],
        kept: KeptTrees | None = None,
    ) -> None:
        """Each file's findings: from the cache, from ``early`` (found while the file was
        summarized for the index), or checked now, over the process pool (in this process
        with the trees in ``kept``, when given)."""
        fixing = self.options.fix or self.options.diff
        unsafe = self.options.unsafe_fixes
        tasks: list[_Task] = []
        keys: dict[str, str] = {}
        for path in files:
            config = configs[path]
            # Without a cache no result is looked up or stored: no key (the index digest
            # hashes every file's facts).
            key = self._result_key(config, index) if cache.enabled else ""
            keys[str(path)] = self._stored_key(key)
            if str(path) in early:
                digest, found = early[str(path)]
                result.diagnostics.extend(found)
                self._store(path, digest, keys[str(path)], found, cache)
                continue
            entry = cache.lookup(path)
            if (
                entry is not None
                and self._serves(entry.result_key, key)
                and entry.diagnostics is not None
            ):
                cached = entry.diagnostics
                if not (fixing and any(is_applicable(d, unsafe) for d in cached)):
                    result.diagnostics.extend(_with_path(cached, str(path)))
                    result.cache_hits += 1
                    continue
            tasks.append(
                _Task(str(path), config.relative(path), config, fixing, unsafe, self.edits, kept)
            )
        outcomes = _parallel_map(
            _check_one,
            tasks,
            self.jobs,
            on_crash=lambda task: _Outcome(
                task.path,
                [
                    Diagnostic(
                        task.path,
                        1,
                        1,
                        1,
                        1,
                        INTERNAL_ERROR,
                        "analysing this file crashed the worker process",
                    )
                ],
            ),
            index=index,
            advance=self._counter("checking", len(files), len(files) - len(tasks)),
        )
        for outcome in outcomes:
            self._record(outcome, keys[outcome.path], cache, result, index)

    def _record(
        self,
        outcome: _Outcome,
        key: str,
        cache: ResultCache,
        result: RunResult,
        index: ProjectIndex,
    ) -> None:
        result.problems.extend(outcome.problems)
        path = Path(outcome.path)
        source = outcome.source
        if outcome.fixed_text is not None and source is not None:
            if self.options.diff:
                result.diffs.append(_unified_diff(outcome.path, source.text, outcome.fixed_text))
                result.fixed += outcome.applied
                result.diagnostics.extend(outcome.diagnostics)
                return
            try:
                write_source_in_place(
                    path, source, outcome.fixed_text, root=self.project_root_of(path)
                )
            except (SourceError, OSError) as err:
                self._not_written(outcome, str(err), result, index)
                return
            result.fixed += outcome.applied
            result.diagnostics.extend(outcome.diagnostics)
            return
        result.diagnostics.extend(outcome.diagnostics)
        if source is not None:
            self._store(path, source.digest, key, outcome.diagnostics, cache)

    def _not_written(
        self, outcome: _Outcome, reason: str, result: RunResult, index: ProjectIndex
    ) -> None:
        """The fix of a file that could not be written: what the run reports is the file as
        it is on disk now, not as it was read. Invariant: the summary tells what this run
        did and what remains. A concurrent ``--fix`` that wrote the same fixed text first
        leaves nothing to report but that (not the file's old findings as "remaining");
        any other change is checked again as it now reads."""
        path = Path(outcome.path)
        try:
            current = read_source(path).text
        except SourceError:
            current = None
        if current is not None and current == outcome.fixed_text:
            result.already_fixed += outcome.applied
            result.diagnostics.extend(outcome.diagnostics)
            return
        result.problems.append(f"{outcome.path}: not fixed: {reason}")
        source = outcome.source
        if current is None or source is None or current == source.text:
            result.diagnostics.extend(outcome.unfixed_diagnostics)
            return
        config = self.workspace.config_for(path)
        result.diagnostics.extend(
            check_source(
                current,
                path=outcome.path,
                config=config,
                rules=_rules(),
                index=index,
                relative_path=config.relative(path),
                edits=self.edits,
            )
        )

    def _store(
        self, path: Path, digest: str, key: str, found: list[Diagnostic], cache: ResultCache
    ) -> None:
        stat = stat_key(path) if cache.enabled else None
        if stat is not None:
            previous = cache.lookup_digest(path, digest)
            entry = previous or CacheEntry(stat[0], stat[1], digest)
            entry.mtime_ns, entry.size = stat
            entry.result_key, entry.diagnostics = key, found
            cache.store(path, entry)

    def _run_stdin(self, text: str) -> RunResult:
        result = RunResult(files=1)
        name = self.options.stdin_filename or "-"
        path = Path(name)
        where = path if self.options.stdin_filename else Path(".")
        workspace = self.workspace
        config = workspace.config_for(where)
        index = workspace.index_with_text(
            path, text, whole_project=bool(self.options.stdin_filename), config=config
        )
        if self.options.fix or self.options.diff:
            outcome = workspace.fix_text(
                path, text, index, unsafe=self.options.unsafe_fixes, name=name, config=config
            )
            result.problems.extend(outcome.problems)
            result.fixed = outcome.applied
            result.diagnostics = outcome.diagnostics
            if self.options.diff:
                if outcome.source != text:
                    result.diffs.append(_unified_diff(name, text, outcome.source))
            else:
                result.stdin_output = outcome.source
            return result
        result.diagnostics = workspace.check_text(
            path, text, index, name=name, config=config, edits=self.edits
        )
        return result


def _with_path(diagnostics: Iterable[Diagnostic], path: str) -> list[Diagnostic]:
    """Cached diagnostics, shown under the path as given this time."""
    return [d if d.path == path else replace(d, path=path) for d in diagnostics]


def _unified_diff(path: str, before: str, after: str) -> str:
    import difflib  # (here: only --diff shows one)

    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
        )
    )


def run(options: RunOptions) -> RunResult:
    """Run the checker; raises :class:`ConfigError` for configuration problems."""
    return Runner(options).run()


__all__ = ["ConfigError", "RunOptions", "RunResult", "run"]
