"""The project index: cross-file answers built from every file's summary.

Rules ask it questions such as "which backends implement ``tan``?" or "is ``cross_entropy``
primary, compositional or mixed?". It is built once per run (from cached summaries where
the files did not change) and shipped to every worker process.

The index itself keeps only names and paths; the summaries behind them may stay encoded
(:class:`EncodedSummary`, as the result cache stores them) until a rule asks about one of
their functions. After one file of a 20k-function tree changes, the file re-checked asks
about a few dozen functions: decoding all 100,000 summaries would cost more than the check.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from ivycheck.checker.base import datacodec
from ivycheck.checker.project.layout import LaidOutSummary, WrapperOrder
from ivycheck.checker.project.summary import (
    WRAPPER,
    DecoratorSummary,
    FileSummary,
    FunctionSummary,
    text_digest,
)


class FunctionKind(enum.StrEnum):
    """Ivy's three kinds of functional-API function."""

    PRIMARY = "primary"
    """Implemented per backend: a backend defines it, or the API delegates to one."""
    COMPOSITIONAL = "compositional"
    """Written once in terms of other API functions; no backend implementation."""
    MIXED = "mixed"
    """Compositional in the API, yet some backends ship their own implementation."""


@dataclass(frozen=True)
class EncodedSummary:
    """A file's summary as the cache keeps it: what the index is built from in the clear
    (part, function names, facts digest, the digest of the text if it parsed), the rest
    JSON text until someone asks: the
    cache stores it as data (:mod:`~ivycheck.checker.base.datacodec`), and a blob that does not
    decode gives a summary that says so instead of a traceback mid-run."""

    path: str
    part: str
    names: tuple[str, ...]
    facts_digest: str
    blob: str
    decorators: tuple[str, ...] = ()
    """The names of the file's own function wrappers (``FileSummary.decorators``)."""
    clean_digest: str = ""
    """``FileSummary.digest`` when the text parsed, else empty: whether a text is the one
    summarized, and parses, is answered without decoding (a big file's summary takes a
    quarter of a second to decode)."""
    wrapper_order: WrapperOrder | None = None
    """The project's wrapper list, when this file defines it (:class:`LaidOutSummary`)."""
    detected_api: str = ""
    """Why the file is functional API by its code, when no glob made it so."""
    laid_out: bool = False
    """The blob is a :class:`LaidOutSummary` (decoded as one)."""

    @classmethod
    def encode(cls, summary: FileSummary) -> EncodedSummary:
        return cls(
            summary.path,
            summary.part,
            tuple(summary.functions),
            summary.facts_digest(),
            json.dumps(datacodec.encode(summary), separators=(",", ":")),
            tuple(summary.decorators),
            summary.digest if summary.parse_error is None else "",
            *_layout(summary),
            isinstance(summary, LaidOutSummary),
        )

    def fits_part(self, by_globs: str) -> bool:
        """Whether this summary still serves a file the globs place in ``by_globs``: made
        for that part, or for ``functional`` because the code of a file the globs leave
        ``other`` dispatches to the current backend (the same text gives the same answer)."""
        return self.part == by_globs or (by_globs == "other" and bool(self.detected_api))

    def decode(self) -> FileSummary:
        try:
            if self.laid_out:
                return datacodec.loads(LaidOutSummary, self.blob)
            return datacodec.loads(FileSummary, self.blob)
        except datacodec.DecodeError:  # any failure, RecursionError included
            return FileSummary(self.path, self.part, parse_error="unreadable cache entry")


def _layout(summary: FileSummary) -> tuple[WrapperOrder | None, str]:
    if isinstance(summary, LaidOutSummary):
        return summary.wrapper_order, summary.detected_api
    return None, ""


class SummaryTable(Mapping[str, FileSummary]):
    """Summaries by path, each decoded from its :class:`EncodedSummary` on first access."""

    def __init__(self) -> None:
        self._decoded: dict[str, FileSummary] = {}
        self._encoded: dict[str, EncodedSummary] = {}

    def put(self, summary: FileSummary | EncodedSummary) -> None:
        self.pop(summary.path)
        if isinstance(summary, EncodedSummary):
            self._encoded[summary.path] = summary
        else:
            self._decoded[summary.path] = summary

    def pop(self, path: str) -> None:
        self._decoded.pop(path, None)
        self._encoded.pop(path, None)

    def __getitem__(self, path: str) -> FileSummary:
        found = self._decoded.get(path)
        if found is None:
            found = self._encoded.pop(path).decode()
            self._decoded[path] = found
        return found

    def clean_digest(self, path: str) -> str | None:
        """The digest of the text ``path`` was summarized from if it parsed, ``""`` if it
        did not, ``None`` for a path not here; never decodes."""
        decoded = self._decoded.get(path)
        if decoded is not None:
            return decoded.digest if decoded.parse_error is None else ""
        encoded = self._encoded.get(path)
        return None if encoded is None else encoded.clean_digest

    def decode_all(self) -> None:
        """For a process about to check many files: they will ask about most summaries,
        and decoded up front they can be frozen out of the garbage collector's way."""
        for path in list(self._encoded):
            self[path]

    def __contains__(self, path: object) -> bool:
        return path in self._decoded or path in self._encoded

    def __iter__(self) -> Iterator[str]:
        yield from self._decoded
        yield from self._encoded

    def __len__(self) -> int:
        return len(self._decoded) + len(self._encoded)


def _head(summary: FileSummary | EncodedSummary) -> tuple[str, str, Iterable[str]]:
    """Path, part and function names, without decoding."""
    if isinstance(summary, EncodedSummary):
        return summary.path, summary.part, summary.names
    return summary.path, summary.part, summary.functions


class ProjectIndex:
    """Functions of the functional API and of each backend, by name.

    ``functional`` maps a name to the API files defining it (in path order), ``backends``
    a backend to its function names and the file defining each (the first in path order).
    A name defined in several files of one part (an experimental and a main module) is
    resolved as Python resolves it: the definition the packages' own ``__init__`` files
    star-import last wins (:meth:`winner`); ``api_function`` and ``implementations``
    answer with that one.
    """

    def __init__(self) -> None:
        self.files = SummaryTable()
        self.functional: dict[str, list[str]] = {}
        self.backends: dict[str, dict[str, str]] = {}
        self._backend_paths: dict[str, dict[str, list[str]]] = {}
        """Every file of a backend defining a name, in path order (``backends`` keeps the
        first)."""
        self._orders: dict[str, list[str]] = {}
        self._decorators: dict[str, list[str]] = {}
        """Files defining each function wrapper, by the wrapper's name (in path order)."""
        self._orders_defined: dict[str, WrapperOrder] = {}
        """The files defining a wrapper list the project re-wraps with (:func:`wrapper_order
        <ivycheck.checker.project.layout.wrapper_order>`), by path."""
        self._wrappers: set[str] = set()
        """Files defining the project's own ``handle_out_argument`` (known from the names a
        summary carries in the clear, so finding them decodes nothing)."""
        """Per package folder, its modules in the order its ``__init__`` binds their names."""
        self._parts: dict[str, str] = {}
        self._facts: dict[str, str] = {}
        self._part_set: frozenset[str] | None = None

    @classmethod
    def build(cls, summaries: Iterable[FileSummary | EncodedSummary]) -> ProjectIndex:
        index = cls()
        for summary in sorted(summaries, key=lambda s: s.path):
            index._add(summary)
        return index

    def replace_file(self, path: str, summary: FileSummary | EncodedSummary | None) -> None:
        """Swap one file's summary in place (the language server does this per keystroke,
        where rebuilding the index of a 20k-function workspace would dominate)."""
        if path in self._parts:
            self._drop(path)
        if summary is not None:
            self._add(summary)

    def _add(self, summary: FileSummary | EncodedSummary) -> None:
        path, part, names = _head(summary)
        self.files.put(summary)
        self._parts[path] = part
        self._part_set = None
        self._orders.clear()
        if WRAPPER in names:
            self._wrappers.add(path)
        order, _ = (
            (summary.wrapper_order, summary.detected_api)
            if isinstance(summary, EncodedSummary)
            else _layout(summary)
        )
        if order is not None:
            self._orders_defined[path] = order
        decorator_names = (
            summary.decorators if isinstance(summary, EncodedSummary) else tuple(summary.decorators)
        )
        for name in decorator_names:
            self._decorators.setdefault(name, []).append(path)
        if isinstance(summary, EncodedSummary):
            self._facts[path] = summary.facts_digest
        if part == "functional":
            for name in names:
                self.functional.setdefault(name, []).append(path)
        elif part.startswith("backend:"):
            backend = part.removeprefix("backend:")
            functions = self.backends.setdefault(backend, {})
            paths = self._backend_paths.setdefault(backend, {})
            for name in names:
                functions.setdefault(name, path)
                paths.setdefault(name, []).append(path)

    def _drop(self, path: str) -> None:
        part = self._parts.pop(path)
        self._part_set = None
        self._orders.clear()
        self._wrappers.discard(path)
        self._orders_defined.pop(path, None)
        for name in list(self.files[path].decorators):
            remaining = [p for p in self._decorators.get(name, []) if p != path]
            if remaining:
                self._decorators[name] = remaining
            else:
                self._decorators.pop(name, None)
        self._facts.pop(path, None)
        names = list(self.files[path].functions)
        self.files.pop(path)
        if part == "functional":
            for name in names:
                remaining = [p for p in self.functional.get(name, []) if p != path]
                if remaining:
                    self.functional[name] = remaining
                else:
                    self.functional.pop(name, None)
        elif part.startswith("backend:"):
            backend = part.removeprefix("backend:")
            functions = self.backends.get(backend, {})
            paths = self._backend_paths.get(backend, {})
            for name in names:
                remaining = [p for p in paths.get(name, []) if p != path]
                if remaining:
                    paths[name] = remaining
                    functions[name] = remaining[0]
                else:
                    paths.pop(name, None)
                    functions.pop(name, None)

    def decorator(self, name: str) -> DecoratorSummary | None:
        """The project's own function wrapper ``name`` (the first file, in path order, to
        define it), or ``None`` when no file of the project defines it."""
        paths = self._decorators.get(name)
        return self.files[paths[0]].decorators.get(name) if paths else None

    def wrapper_order(self) -> tuple[str, WrapperOrder] | None:
        """The project's own wrapper list and the file defining it (the first in path
        order), or ``None`` when no file of the project defines one."""
        if not self._orders_defined:
            return None
        path = min(self._orders_defined)
        return path, self._orders_defined[path]

    def part_of(self, path: str) -> str | None:
        """The part ``path`` was summarized as (the globs', or ``functional`` found by its
        code), ``None`` for a file not in the index."""
        return self._parts.get(path)

    def wrapper_takes(self, name: str, keyword: str) -> bool:
        """Whether the project's own wrapper ``name`` takes ``keyword`` itself (its inner
        function names it: :func:`~ivycheck.checker.project.layout.wrapper_keywords`), so
        that the functions it wraps never receive it."""
        paths = self._decorators.get(name)
        if not paths:
            return False
        summary = self.files[paths[0]]
        return isinstance(summary, LaidOutSummary) and keyword in summary.wrapper_keywords.get(
            name, ()
        )

    def wrapper_paths(self) -> list[str]:
        """The files defining ``handle_out_argument`` at module level, in path order."""
        return sorted(self._wrappers)

    def parts(self) -> frozenset[str]:
        """The parts (``functional``, ``backend:numpy``...) with at least one file (asked
        per backend call by IVY017: kept, not rebuilt from every file each time)."""
        if self._part_set is None:
            self._part_set = frozenset(self._parts.values())
        return self._part_set

    def digest(self) -> str:
        """Changes whenever what files can see of each other changes (``public_facts``);
        part of the cache key of cross-file rules. Built from per-file digests, which the
        cache keeps, so a rerun does not hash every function of the tree again."""
        facts = sorted((path, self._facts_digest(path)) for path in self._parts)
        return hashlib.sha256(repr(facts).encode()).hexdigest()[:16]

    def _facts_digest(self, path: str) -> str:
        found = self._facts.get(path)
        if found is None:
            found = self._facts[path] = self.files[path].facts_digest()
        return found

    def summarized_clean(self, path: str, source: str) -> bool:
        """Whether ``path``'s summary was made from exactly this text, which parsed (no
        syntax check needed); :meth:`clean_summary` without decoding it."""
        digest = self.files.clean_digest(path)
        return bool(digest) and digest == text_digest(source)

    def clean_summary(self, path: str, source: str) -> FileSummary | None:
        """The summary of ``path`` if it was made from exactly this text and that parsed:
        then no syntax check is needed, and its statement lines are this text's."""
        summary = self.files.get(path)
        if (
            summary is not None
            and summary.parse_error is None
            and summary.digest == text_digest(source)
        ):
            return summary
        return None

    def implementations(self, name: str) -> dict[str, FunctionSummary]:
        """The backends that define ``name``, with their definitions (the winning one)."""
        return {
            backend: self.files[self.backend_path(backend, name)].functions[name]
            for backend, functions in sorted(self.backends.items())
            if name in functions
        }

    def backend_path(self, backend: str, name: str) -> str:
        """The file whose ``name`` a backend uses at run time (``KeyError`` if none)."""
        paths = self._backend_paths[backend][name]
        return paths[0] if len(paths) == 1 else self.winner(paths)

    def api_function(self, name: str) -> FunctionSummary | None:
        found = self.functional.get(name)
        if not found:
            return None
        path = found[0] if len(found) == 1 else self.winner(found)
        return self.files[path].functions[name]

    def winner(self, paths: list[str]) -> str:
        """Of files defining the same name, the one whose definition is bound last by the
        outermost package ``__init__`` that star-imports them all (``from .experimental
        import *`` after ``from .linear_algebra import *``: the experimental one); the first
        in path order when no ``__init__`` of the index imports them all."""
        folders = paths[0].split("/")[:-1]
        for depth in range(1, len(folders) + 1):
            position = {path: i for i, path in enumerate(self._order("/".join(folders[:depth])))}
            if all(path in position for path in paths):
                return max(paths, key=position.__getitem__)
        return paths[0]

    def _order(self, package: str, seen: frozenset[str] = frozenset()) -> list[str]:
        """The module files whose names ``package``'s ``__init__`` binds, in binding order."""
        known = self._orders.get(package)
        if known is not None:
            return known
        init = self.files.get(f"{package}/__init__.py") if package not in seen else None
        order: list[str] = []
        for module in init.star_imports if init is not None else ():
            dots = len(module) - len(module.lstrip("."))
            base = package.split("/")[: len(package.split("/")) - (dots - 1)]
            target = "/".join([*base, *module.lstrip(".").split(".")])
            if f"{target}.py" in self.files:
                order.append(f"{target}.py")
            elif f"{target}/__init__.py" in self.files:
                order.extend(self._order(target, seen | {package}))
        self._orders[package] = order
        return order

    def kind(self, name: str) -> FunctionKind | None:
        """Primary, compositional or mixed; ``None`` when ``name`` is not in the functional API."""
        api = self.api_function(name)
        if api is None:
            return None
        if "mixed_backend_wrappers" in api.attributes:
            return FunctionKind.MIXED
        if api.delegates_to_backend:
            return FunctionKind.PRIMARY
        if self.implementations(name):
            return (
                FunctionKind.MIXED
                if "handle_partial_mixed_function" in api.decorators
                else (FunctionKind.PRIMARY)
            )
        return FunctionKind.COMPOSITIONAL
