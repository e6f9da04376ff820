"""What a check asked the project index, so that a file is re-checked only when an answer
it used has changed.

A file's findings are a function of its text, its configuration and the index answers its
rules read. :class:`RecordingIndex` stands in for the index during one check and notes each
question (``api_function("tan")``, ``implementations("tan")``, ``parts()``, a summary by
path); :func:`answers_key` hashes the answers the current index gives to the same
questions. Equal keys mean equal inputs, hence equal findings, whatever else changed in
the project: after an edit of one backend function, only the files that asked about that
function are checked again (as salsa / rust-analyzer re-run a query only when an input it
read changed).

Soundness does not depend on this module knowing every way a rule can read the index: any
read it does not recognise (a direct look at ``functional``, ``backends``, or an attribute
added to :class:`ProjectIndex` later) marks the check ``untracked``, and such a file is
keyed on the digest of the whole index instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ivycheck.checker.project.index import FunctionKind, ProjectIndex, SummaryTable
from ivycheck.checker.project.layout import WrapperOrder
from ivycheck.checker.project.summary import DecoratorSummary, FileSummary, FunctionSummary


@dataclass
class Reads:
    """The questions one check asked."""

    api: set[str] = field(default_factory=set)
    implementations: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)
    parts: bool = False
    decorators: set[str] = field(default_factory=set)
    """The project's own wrappers asked about (``decorator``, ``wrapper_takes``)."""
    wrapper_takes: set[tuple[str, str]] = field(default_factory=set)
    wrapper_order: bool = False
    wrapper_paths: bool = False
    part_of: set[str] = field(default_factory=set)
    untracked: bool = False


class _RecordingTable(SummaryTable):
    """``index.files`` as a rule sees it: every path looked up is noted."""

    def __init__(self, base: SummaryTable, reads: Reads) -> None:
        super().__init__()
        self._base = base
        self._reads = reads

    def __getitem__(self, path: str) -> FileSummary:
        self._reads.files.add(path)
        return self._base[path]

    def __contains__(self, path: object) -> bool:
        if isinstance(path, str):
            self._reads.files.add(path)
        return path in self._base

    def clean_digest(self, path: str) -> str | None:
        self._reads.files.add(path)
        return self._base.clean_digest(path)

    def __iter__(self) -> Iterator[str]:
        self._reads.untracked = True
        return iter(self._base)

    def __len__(self) -> int:
        self._reads.untracked = True
        return len(self._base)


class RecordingIndex(ProjectIndex):
    """A read-only view of ``base`` that records what is asked (see the module doc).

    It holds no index state of its own: every answer comes from ``base``, so the view is
    made per check for nothing. Attribute lookups that fall through to ``__getattr__``
    are reads this class does not track, and mark the check ``untracked``.
    """

    def __init__(self, base: ProjectIndex) -> None:
        object.__setattr__(self, "_base", base)
        object.__setattr__(self, "reads", Reads())
        object.__setattr__(self, "_files", _RecordingTable(base.files, self.reads))

    _base: ProjectIndex
    reads: Reads
    _files: _RecordingTable

    def __getattr__(self, name: str) -> Any:
        self.reads.untracked = True
        return getattr(self._base, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a recording index is read-only ({name})")

    @property
    def files(self) -> SummaryTable:  # type: ignore[override]
        return self._files

    @property
    def functional(self) -> dict[str, list[str]]:  # type: ignore[override]
        self.reads.untracked = True
        return self._base.functional

    @property
    def backends(self) -> dict[str, dict[str, str]]:  # type: ignore[override]
        self.reads.untracked = True
        return self._base.backends

    def api_function(self, name: str) -> FunctionSummary | None:
        self.reads.api.add(name)
        return self._base.api_function(name)

    def implementations(self, name: str) -> dict[str, FunctionSummary]:
        self.reads.implementations.add(name)
        return self._base.implementations(name)

    def kind(self, name: str) -> FunctionKind | None:
        self.reads.api.add(name)
        self.reads.implementations.add(name)
        return self._base.kind(name)

    def parts(self) -> frozenset[str]:
        self.reads.parts = True
        return self._base.parts()

    # The project's own wrappers (IVY005's order, IVY001..IVY003's out-fate): asked of
    # nearly every file; untracked, each edit of a file that others see re-checked them
    # all (412 of 500 closed files, 5.5 s of CPU, after one decorator moved in another).

    def decorator(self, name: str) -> DecoratorSummary | None:
        self.reads.decorators.add(name)
        return self._base.decorator(name)

    def wrapper_takes(self, name: str, keyword: str) -> bool:
        self.reads.wrapper_takes.add((name, keyword))
        return self._base.wrapper_takes(name, keyword)

    def wrapper_order(self) -> tuple[str, WrapperOrder] | None:
        self.reads.wrapper_order = True
        return self._base.wrapper_order()

    def wrapper_paths(self) -> list[str]:
        self.reads.wrapper_paths = True
        return self._base.wrapper_paths()

    def part_of(self, path: str) -> str | None:
        self.reads.part_of.add(path)
        return self._base.part_of(path)

    def clean_summary(self, path: str, source: str) -> FileSummary | None:
        self.reads.files.add(path)
        return self._base.clean_summary(path, source)

    def digest(self) -> str:
        self.reads.untracked = True
        return self._base.digest()


def answers_key(
    index: ProjectIndex, reads: Reads, memo: dict[tuple[str, str], str] | None = None
) -> str:
    """A digest of what ``index`` answers to the questions in ``reads``; for an untracked
    check, of the whole index. Function summaries are compared whole (lines included: a
    message may cite where a definition is), file summaries by path, part and the digest
    of the text they were made from (a summary is a function of those).

    ``memo`` keeps each answer for a caller asking about many files against one state of
    the index (many files ask about the same names); it must not outlive that state."""
    if reads.untracked:
        return "index:" + index.digest()
    memo = {} if memo is None else memo
    answers: list[str] = []
    for kind, names in (("api", reads.api), ("impl", reads.implementations)):
        for name in sorted(names):
            found = memo.get((kind, name))
            if found is None:
                answer = (
                    index.api_function(name)
                    if kind == "api"
                    else sorted(index.implementations(name).items())
                )
                found = memo[(kind, name)] = f"{kind}:{name}:{answer!r}"
            answers.append(found)
    for path in sorted(reads.files):
        summary = index.files.get(path)
        shown = None if summary is None else (summary.part, summary.digest, summary.parse_error)
        answers.append(f"file:{path}:{shown!r}")
    if reads.parts:
        answers.append(f"parts:{sorted(index.parts())!r}")
    answers += [f"decorator:{name}:{index.decorator(name)!r}" for name in sorted(reads.decorators)]
    answers += [
        f"takes:{name}:{keyword}:{index.wrapper_takes(name, keyword)}"
        for name, keyword in sorted(reads.wrapper_takes)
    ]
    if reads.wrapper_order:
        answers.append(f"order:{index.wrapper_order()!r}")
    if reads.wrapper_paths:
        answers.append(f"wrappers:{index.wrapper_paths()!r}")
    answers += [f"part:{path}:{index.part_of(path)!r}" for path in sorted(reads.part_of)]
    # A path the file system holds need not be UTF-8 (its bytes surrogate-escaped).
    text = "\n".join(answers).encode("utf-8", "surrogateescape")
    return hashlib.blake2b(text, digest_size=12).hexdigest()


__all__ = ["Reads", "RecordingIndex", "answers_key"]
