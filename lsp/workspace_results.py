"""Diagnostics of the files that are not open, kept between requests with a result id.

Workspace diagnostics are asked for again and again (VS Code pulls after every change the
server announces; push clients get them re-sent after a cross-file change), and most of a
workspace does not change in between. Each file's entry remembers what its result was
computed from: the text's digest (the file is read again only when its ``stat`` changed),
the configuration's digest, whether the index was complete, and the answers its rules got
from the index (:mod:`ivycheck.lsp.reads`). A file is checked again only when one of
those changed; a change of the index that answers none of its questions leaves it alone.

The result id is a digest of the diagnostics themselves: a client that sends back the id
it holds gets "unchanged" exactly when the report would be the same, even after a
re-check (an edit reverted, a comment added to a dependency).
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, replace
from pathlib import Path

from lsprotocol import types

from ivycheck.checker.base.sourcefile import SourceError, read_source
from ivycheck.checker.core.engine import INTERNAL_ERROR, check_source
from ivycheck.checker.project.summary import text_digest
from ivycheck.checker.run.cache import stat_key
from ivycheck.checker.run.projects import Projects
from ivycheck.lsp.convert import split_lines, to_lsp_diagnostic
from ivycheck.lsp.reads import Reads, RecordingIndex, answers_key


@dataclass(frozen=True)
class FileResult:
    """One closed file's diagnostics and what they were computed from."""

    result_id: str
    items: list[types.Diagnostic]
    stat: tuple[int, int]
    content: str
    config: str
    complete: bool
    index: str
    """The scope's index digest at the last validation."""
    reads: Reads
    answers: str


class WorkspaceResults:
    """Per-file results of closed files; every method runs on the checking thread."""

    def __init__(self, project: Projects) -> None:
        self.project = project
        self.entries: dict[str, FileResult] = {}
        self.checked = 0
        """Files checked (not served from an entry) so far."""
        self._answers: dict[Path, tuple[str, dict[tuple[str, str], str]]] = {}
        """Per project root: the index digest, and the answers given in that state."""

    def keep_only(self, paths: list[Path]) -> None:
        """Drop the entries of files no longer reported (deleted, excluded, opened)."""
        kept = {os.path.abspath(path) for path in paths}
        for key in self.entries.keys() - kept:
            del self.entries[key]

    def results(
        self, paths: list[Path], budget: float
    ) -> tuple[list[tuple[Path, FileResult]], list[Path]]:
        """:meth:`result` for ``paths`` for about ``budget`` seconds (at least one file):
        the results, and the paths left. Unchanged files cost a ``stat`` each, so a pull
        of an unchanged workspace is a few calls, not one per file."""
        deadline = time.perf_counter() + budget
        found: list[tuple[Path, FileResult]] = []
        for position, path in enumerate(paths):
            if position and time.perf_counter() > deadline:
                return found, paths[position:]
            result = self.result(path)
            if result is not None:
                found.append((path, result))
        return found, []

    def _read(self, key: str, path: Path) -> str | None:
        """The file's text; ``None`` (and its entry forgotten) if it cannot be read."""
        try:
            return read_source(path).text
        except SourceError:
            self.entries.pop(key, None)
            return None

    def result(self, path: Path) -> FileResult | None:
        """The file's diagnostics as on disk; ``None`` if it cannot be read (its summary
        says why, and it has no lines to point at) or is gone."""
        key = os.path.abspath(path)
        stat = stat_key(path)
        if stat is None:
            self.entries.pop(key, None)
            return None
        previous = self.entries.get(key)
        text: str | None = None
        if previous is not None and previous.stat == stat:
            content = previous.content
        else:
            text = self._read(key, path)
            if text is None:
                return None
            content = text_digest(text)
        project = self.project
        config = project.config_for(path)
        scope = project.scope_for(path)
        index_digest = project.index_digest(scope)
        if previous is not None and (previous.content, previous.config, previous.complete) == (
            content,
            config.digest(),
            scope.complete,
        ):
            if previous.index == index_digest:
                return self._keep(key, previous, stat)
            memo = self._memo(scope.root, index_digest)
            answers = answers_key(project.index_of(scope), previous.reads, memo)
            if answers == previous.answers:
                return self._keep(key, replace(previous, index=index_digest), stat)
        if text is None:
            text = self._read(key, path)
            if text is None:
                return None
            content = text_digest(text)
        index = project.index_of(scope)
        recording = RecordingIndex(index)
        found = check_source(
            text,
            path=str(path),
            config=config,
            rules=project.rules_for(scope),
            index=recording,
            relative_path=config.relative(path),
        )
        self.checked += 1
        lines = split_lines(text)
        items = [to_lsp_diagnostic(d, lines) for d in found if d.code != INTERNAL_ERROR]
        result = FileResult(
            result_id=report_id(items),
            items=items,
            stat=stat,
            content=content,
            config=config.digest(),
            complete=scope.complete,
            index=index_digest,
            reads=recording.reads,
            answers=answers_key(index, recording.reads, self._memo(scope.root, index_digest)),
        )
        self.entries[key] = result
        return result

    def _memo(self, root: Path, index_digest: str) -> dict[tuple[str, str], str]:
        """The answers memo of ``root``'s index in its current state."""
        known = self._answers.get(root)
        if known is None or known[0] != index_digest:
            known = self._answers[root] = (index_digest, {})
        return known[1]

    def _keep(self, key: str, result: FileResult, stat: tuple[int, int]) -> FileResult:
        if result.stat != stat:
            result = replace(result, stat=stat)
        self.entries[key] = result
        return result


def report_id(items: list[types.Diagnostic]) -> str:
    """The result id of a report: a digest of its diagnostics (see the module doc)."""
    return hashlib.blake2b(repr(items).encode(), digest_size=12).hexdigest()


__all__ = ["FileResult", "WorkspaceResults", "report_id"]
