"""The project index: cross-file answers built from every file's summary.

Rules ask it questions such as "which backends implement ``tan``?" or "is ``cross_entropy``
primary, compositional or mixed?". It is built once per run (from cached summaries where
the files did not change) and shipped to every worker process.
"""

from __future__ import annotations

import enum
import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ivycheck.checker.summary import FileSummary, FunctionSummary, text_digest


class FunctionKind(enum.StrEnum):
    """Ivy's three kinds of functional-API function."""

    PRIMARY = "primary"
    """Implemented per backend: a backend defines it, or the API delegates to one."""
    COMPOSITIONAL = "compositional"
    """Written once in terms of other API functions; no backend implementation."""
    MIXED = "mixed"
    """Compositional in the API, yet some backends ship their own implementation."""


@dataclass
class ProjectIndex:
    """Functions of the functional API and of each backend, by name."""

    files: dict[str, FileSummary] = field(default_factory=dict)
    functional: dict[str, list[FunctionSummary]] = field(default_factory=dict)
    backends: dict[str, dict[str, FunctionSummary]] = field(default_factory=dict)

    @classmethod
    def build(cls, summaries: Iterable[FileSummary]) -> ProjectIndex:
        index = cls()
        functional: defaultdict[str, list[FunctionSummary]] = defaultdict(list)
        backends: defaultdict[str, dict[str, FunctionSummary]] = defaultdict(dict)
        for summary in sorted(summaries, key=lambda s: s.path):
            index.files[summary.path] = summary
            if summary.part == "functional":
                for name, function in summary.functions.items():
                    functional[name].append(function)
            elif summary.part.startswith("backend:"):
                backend = summary.part.removeprefix("backend:")
                for name, function in summary.functions.items():
                    backends[backend].setdefault(name, function)
        index.functional = dict(functional)
        index.backends = dict(backends)
        return index

    def replace_file(self, path: str, summary: FileSummary | None) -> None:
        """Swap one file's summary in place (the language server does this per keystroke,
        where rebuilding the index of a 20k-function workspace would dominate)."""
        old = self.files.pop(path, None)
        if old is not None:
            self._drop(old)
        if summary is None:
            return
        self.files[summary.path] = summary
        if summary.part == "functional":
            for name, function in summary.functions.items():
                self.functional.setdefault(name, []).append(function)
        elif summary.part.startswith("backend:"):
            functions = self.backends.setdefault(summary.part.removeprefix("backend:"), {})
            for name, function in summary.functions.items():
                functions.setdefault(name, function)

    def _drop(self, old: FileSummary) -> None:
        if old.part == "functional":
            for name, function in old.functions.items():
                remaining = [f for f in self.functional.get(name, []) if f is not function]
                if remaining:
                    self.functional[name] = remaining
                else:
                    self.functional.pop(name, None)
        elif old.part.startswith("backend:"):
            functions = self.backends.get(old.part.removeprefix("backend:"), {})
            for name, function in old.functions.items():
                if functions.get(name) is function:
                    del functions[name]

    def digest(self) -> str:
        """Changes whenever what files can see of each other changes (``public_facts``);
        part of the cache key of cross-file rules."""
        facts = [(path, summary.public_facts()) for path, summary in sorted(self.files.items())]
        # repr, not pickle: pickle's bytes depend on which equal strings are the same object
        # (summaries read back from the cache share fewer), so equal facts hashed differently.
        return hashlib.sha256(repr(facts).encode()).hexdigest()[:16]

    def parsed_cleanly(self, path: str, source: str) -> bool:
        """Whether the summary of exactly this text parsed, so no syntax check is needed."""
        summary = self.files.get(path)
        return (
            summary is not None
            and summary.parse_error is None
            and summary.digest == text_digest(source)
        )

    def implementations(self, name: str) -> dict[str, FunctionSummary]:
        """The backends that define ``name``, with their definitions."""
        return {
            backend: functions[name]
            for backend, functions in sorted(self.backends.items())
            if name in functions
        }

    def api_function(self, name: str) -> FunctionSummary | None:
        found = self.functional.get(name)
        return found[0] if found else None

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
