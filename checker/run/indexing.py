"""The project index of discovered files: built the same way by the command, the flake8
plugin and the language server.

Every file is summarized with ``ast`` (:func:`~ivycheck.checker.project.summary.summarize`)
unless the result cache holds a summary made for its unchanged ``stat``; what is made is
stored back. Summaries are encoded where they are made (:class:`EncodedSummary`): bytes
cross a process boundary and go into the cache far cheaper than the object graph, and
the index decodes a file's summary only when a rule asks about it.

The command and the flake8 plugin index the whole project whatever paths they check
(:func:`index_roots`, :func:`build_index`), so a file's findings are the same for any
paths naming it; they build an index only when a rule that reads it
(``Rule.NEEDS_INDEX``) is active (:func:`needs_index`); otherwise every file is checked
against an empty one, and cached results are not keyed on it. The language server always
summarizes its workspace: its settings may enable such a rule at any time.

The command also checks a file right where it summarizes it when nothing the file's
findings depend on is in other files (:func:`check_while_summarizing`): the tree is in
hand, and most files of a run are then read and parsed once.
"""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from ivycheck.checker.base import collector, trees
from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.sourcefile import SourceError, read_source, too_large_on_disk
from ivycheck.checker.base.trees import KeptTrees
from ivycheck.checker.core.engine import INTERNAL_ERROR, check_file
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import FileUnderCheck, Rule
from ivycheck.checker.project.config import Config, configures
from ivycheck.checker.project.discovery import ProjectFiles, discover, outermost, project_root
from ivycheck.checker.project.index import EncodedSummary, ProjectIndex
from ivycheck.checker.project.layout import summarize_file
from ivycheck.checker.project.summary import FileSummary
from ivycheck.checker.run.cache import CacheEntry, ResultCache, stat_key


class CheckWith(NamedTuple):
    """How to check a file while its tree is at hand (:func:`check_while_summarizing`)."""

    config: Config
    edits: bool
    """Whether fixes need their text edits (``check_file``'s ``edits``)."""
    kept: KeptTrees | None = None
    """Where this process keeps the trees of files that wait for the index, when it
    checks them later itself (the run's :class:`~ivycheck.checker.base.trees.KeptTrees`;
    ``None`` in a worker process, whose trees could not reach the check)."""
    early: bool = True
    """Whether to check the file now; otherwise (``--fix``, whose check comes after the
    index) only keep its tree in ``kept``."""


Item = tuple[str, str, str, int, CheckWith | None]
"""A file to summarize: path, path relative to its configuration's root, part, the
configuration's ``max-file-size``, and how to check it while its tree is at hand
(``None``: summarize only)."""
Summarized = tuple[str, str | None, FileSummary | EncodedSummary, list[Diagnostic] | None]
"""A file summarized: path, content digest (``None``: the file could not be read), summary
(encoded where it crosses a process boundary, :func:`summarize_path`), and its findings
when it was checked too."""
Mapper = Callable[
    [Callable[[Item], Summarized], list[Item], Callable[[Item], Summarized]], list[Summarized]
]
"""``mapper(function, items, on_crash)``: ``function`` over ``items``, in order; the
command runs it over a process pool, where ``on_crash`` stands in for a dead worker."""


def needs_index(configs: Iterable[Config], rules: Iterable[type[Rule]]) -> bool:
    """Whether a rule that reads the index is enabled by any of ``configs`` (per-file
    ignores aside: a rule ignored in some files still runs in the others)."""
    distinct = {id(config): config for config in configs}.values()
    readers = [rule for rule in rules if rule.NEEDS_INDEX]
    return any(config.is_enabled(rule.CODE) for config in distinct for rule in readers)


def summarize_path(item: Item, encode: bool = True) -> Summarized:
    """One file from disk; an unreadable one gets a summary that says why. ``encode``:
    the summary is to cross a process boundary (a worker's), where the encoded form
    pickles far cheaper than the object graph; in the process that builds the index it
    stays as it is, and nothing encodes and decodes it again (unless a cache keeps it)."""
    path, relative, part, max_size, check_with = item
    try:
        if too_large_on_disk(path, max_size) is not None:
            raise SourceError("skipped: larger than max-file-size")
        source = read_source(Path(path))
    except SourceError as err:
        # No digest: not cached, so a raised max-file-size or a fixed file is seen again.
        unread = FileSummary(relative, part, parse_error=str(err))
        return path, None, EncodedSummary.encode(unread) if encode else unread, None
    if check_with is not None and check_with.kept is not None:
        # The command on one core: its collector is paused, and it keeps some trees.
        tree = collector.untraced_parse(lambda: trees.parse_or_none(source.text))
    else:
        tree = trees.parse_or_none(source.text)
    summary = summarize_file(source.text, relative, part, tree=tree)
    found = None
    if check_with is not None and check_with.early:
        try:
            found = check_while_summarizing(
                source.text,
                path,
                relative,
                check_with.config,
                summary,
                edits=check_with.edits,
                tree=tree,
            )
        except Exception:  # noqa: BLE001 - the check after the index reports it as IVY999
            found = None
    if check_with is not None and found is None and tree is not None and check_with.kept:
        check_with.kept.keep(source.text, tree)
    return path, source.digest, EncodedSummary.encode(summary) if encode else summary, found


def check_while_summarizing(
    text: str,
    path: str,
    relative: str,
    config: Config,
    summary: FileSummary,
    *,
    edits: bool = True,
    tree: ast.Module | None = None,
) -> list[Diagnostic] | None:
    """The file's findings, found now that CPython's tree of it is at hand, when no rule
    needs other files to decide them: those findings do not wait for the index. ``None``
    otherwise (checked after the index is built). Saves the second read and CPython
    parse of most files of a run.

    The check runs with an index that stops whoever reads it (:class:`_IndexNotBuilt`):
    a check that completes without reading it gives what it would give with the whole
    index, since nothing else differs; one that reads it waits. So a rule that reads other
    files (``Rule.NEEDS_INDEX``) only for some shapes lets every other file be checked
    here, without a second copy of its logic to say which."""
    index = ProjectIndex.build([summary])
    file = FileUnderCheck.of(text, path, config, index=index, relative_path=relative, tree=tree)
    if summary.parse_error is None:
        file = file.with_index(_IndexNotBuilt())
    try:
        found = check_file(file, _readers_first(), fixes=True, edits=edits)
    except _IndexRead:
        return None
    if any(d.code == INTERNAL_ERROR for d in found):
        return None  # checked again after the index, in the registry's order (see below)
    return found


def _readers_first() -> list[type[Rule]]:
    """The registry's rules, those that may read the index (``Rule.NEEDS_INDEX``) first:
    an early check that must wait for the index stops at the first read, and the rules
    run before it were work thrown away (a sixth of the early checks' time on the Ivy
    snapshot). The order changes no finding (each rule decides alone, and findings are
    sorted by position and code) except the order of two IVY999s of one file, which tie:
    a file with one is checked again after the index, in the registry's order."""
    rules = list(all_rules().values())
    return [rule for rule in rules if rule.NEEDS_INDEX] + [
        rule for rule in rules if not rule.NEEDS_INDEX
    ]


class _IndexRead(BaseException):
    """Raised by :class:`_IndexNotBuilt`; a ``BaseException`` so that no ``except
    Exception`` in a rule or in the engine can take it for an answer."""


class _IndexNotBuilt(ProjectIndex):
    """The index while it is being built: reading anything of it stops the reader. The
    engine's own question (was this very text summarized clean?) is answered "no", so it
    checks the text's syntax itself (the tree is at hand: nothing is parsed again)."""

    def __getattribute__(self, name: str) -> object:
        if name == "summarized_clean":
            return lambda relative, source: False
        raise _IndexRead(name)


def _crashed(item: Item) -> Summarized:
    path, relative, part, _, _ = item
    return path, None, FileSummary(relative, part, parse_error="crashed"), None


def in_process(
    function: Callable[[Item], Summarized],
    items: list[Item],
    on_crash: Callable[[Item], Summarized],
) -> list[Summarized]:
    return [function(item) for item in items]


def summarize_files(
    project: ProjectFiles,
    cache: ResultCache,
    mapper: Mapper = in_process,
    check: Callable[[Path], bool] | None = None,
    edits: bool = True,
    kept: KeptTrees | None = None,
    encoded: bool = True,
    early: bool = True,
) -> list[Summarized]:
    """A summary of every file of ``project``: from ``cache`` where the file's ``stat``
    matches and the summary was made for the same relative path and part, else made (and
    stored in ``cache``). Cached ones come first. Files ``check`` says are to be checked
    are checked too where they are summarized and their rules allow
    (:func:`check_while_summarizing`), their fixes with text edits if ``edits``; given
    ``kept`` (the files are summarized and checked in this process), the trees of those
    that wait for the index are kept there for their check (``early`` false: every file
    ``check`` names waits, none is checked here). ``encoded``: ``mapper`` may
    run the summaries in other processes, so they are encoded where they are made
    (otherwise they are made in the clear, and encoded only for the cache).

    The relative path and the part are the only settings a summary depends on; they change
    with ``functional-api``/``backends`` or the project root, and a summary kept across such
    a change would tell the other files the old layout (a backend seen as ``other``)."""
    found: list[Summarized] = []
    missing: list[Item] = []
    for path in project.files:
        config = project.configs[path]
        relative = config.relative(path)
        part = config.part_of(relative)
        entry = cache.lookup(path)
        cached = None if entry is None else entry.summary
        if entry is None or cached is None or cached.path != relative or not cached.fits_part(part):
            checking = check is not None and check(path)
            check_with = CheckWith(config, edits, kept, early) if checking else None
            missing.append((str(path), relative, part, config.max_file_size, check_with))
        else:
            found.append((str(path), entry.digest, cached, None))
    summarizer = summarize_path if encoded else functools.partial(summarize_path, encode=False)
    computed = mapper(summarizer, missing, _crashed)
    for path_text, digest, summary, _ in computed if cache.enabled else ():
        path = Path(path_text)
        stat = stat_key(path)
        if digest is not None and stat is not None:
            previous = cache.lookup_digest(path, digest)
            entry = previous or CacheEntry(stat[0], stat[1], digest)
            entry.mtime_ns, entry.size, entry.summary = stat[0], stat[1], _encoded(summary)
            cache.store(path, entry)
    return found + computed


def _encoded(summary: FileSummary | EncodedSummary) -> EncodedSummary:
    return summary if isinstance(summary, EncodedSummary) else EncodedSummary.encode(summary)


def index_roots(
    paths: Iterable[Path], config_for: Callable[[Path], Config], explicit: bool = False
) -> list[Path]:
    """The project roots (:func:`~ivycheck.checker.project.discovery.project_root`) of ``paths``,
    outermost only. ``explicit``: the configuration was named (``--config``), so its
    root counts as found even without a ``pyproject.toml`` there."""
    roots: list[Path] = []
    found: dict[int, Path | None] = {}
    for path in paths:
        config = config_for(path)
        if id(config) not in found:
            found[id(config)] = config.root if explicit or configures(config.root) else None
        roots.append(project_root(path, found[id(config)]))
    return outermost(roots)


def build_index(
    checked: ProjectFiles,
    roots: list[Path],
    config_for: Callable[[Path], Config],
    cache: ResultCache,
    rules: Iterable[type[Rule]],
    mapper: Mapper = in_process,
    config_for_file: Callable[[Path], Config] | None = None,
    roots_discovered: ProjectFiles | None = None,
    checked_early: dict[str, tuple[str, list[Diagnostic]]] | None = None,
    edits: bool = True,
    kept: KeptTrees | None = None,
    encoded: bool = True,
) -> ProjectIndex:
    """The index of every Python file under ``roots`` (as discovery finds them: excludes
    and ``.gitignore`` apply) plus the ``checked`` files outside them; empty when no active
    rule reads it. Invariant: the index, hence every cross-file finding, does not depend
    on which files of the project are checked. Unchanged files' summaries come from
    ``cache``, so a run over one file of a warm project summarizes only that file.
    ``roots_discovered``: the files of ``roots`` when the caller already walked them (a
    run over the project root itself), so the tree is walked once. ``checked_early``
    (given empty): filled with the content digest and findings of the ``checked`` files
    found while they were summarized (:func:`check_while_summarizing`); the caller checks
    the others; ``edits``: whether their fixes need text edits; ``kept``: where to keep
    the others' trees for their check (without ``checked_early``, all the ``checked``
    files' trees: none is checked early), and ``encoded`` (whether ``mapper`` may
    summarize in other processes): see :func:`summarize_files`."""
    if not needs_index(checked.configs.values(), rules):
        return ProjectIndex()
    given = {os.path.abspath(path) for path in checked.files}
    whole = roots_discovered or discover(roots, config_for, config_for_file)
    indexed = {os.path.abspath(path) for path in whole.files}
    extra = [path for path in checked.files if os.path.abspath(path) not in indexed]
    if not extra and indexed == given:
        project = checked
    else:
        configs = {**whole.configs, **{path: checked.configs[path] for path in extra}}
        project = ProjectFiles([*whole.files, *extra], configs, [])

    def is_checked(path: Path) -> bool:
        return os.path.abspath(path) in given

    summarized = summarize_files(
        project,
        cache,
        mapper,
        is_checked if checked_early is not None or kept is not None else None,
        edits,
        kept,
        encoded,
        early=checked_early is not None,
    )
    for path, digest, _, found in summarized:
        if checked_early is not None and found is not None and digest is not None:
            checked_early[path] = (digest, found)
    return ProjectIndex.build(summary for _, _, summary, _ in summarized)
