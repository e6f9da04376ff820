"""One check of an open document's text: the least work an edit needs, in the order the
user waits for it.

Per version of a buffer: one parse (:mod:`~ivycheck.lsp.reparse`: only the statements the
edit touched), whose tree both the project index's summary of the file
(:meth:`Projects.update`) and the rules' check (:meth:`Projects.check`) read; the summary
made again only when the text differs from the one last summarized (a save, another
file's change or a second pull re-check the same text); and nothing at all for a text
the user has already replaced (``current``: a newer ``didChange`` has arrived), checked
before the parse and again before the rules run.

The summary comes before the check, not after it: the rules read the file's own summary
from the index (its functions' attributes, what kind of API function each is).

While a buffer does not parse (an edit half made: ``foo(`` before its ``)``), the index
keeps the last summary of it that did. Other files keep seeing its functions, instead of
a file with none and then all of them again a keystroke later, each time re-checking
every file that reads them; the document itself gets CPython's syntax error from its
own check. Closing it reads the file from disk again (:meth:`Buffers.update_from_disk`).

The same text checked again against an index no file has changed in since (a client
pulling every open document after a ``workspace/diagnostic/refresh``, the one just
checked among them) is answered with the findings already made.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.run.projects import Projects, Scope, Summary
from ivycheck.lsp.logs import timing
from ivycheck.lsp.reparse import ParsedText, parse_text


@dataclass(frozen=True)
class _Checked:
    """A document's last findings and what they were made from."""

    text: str
    scope: Scope
    state: tuple[int, int, int, bool]
    found: list[Diagnostic]


@dataclass(frozen=True)
class Outcome:
    """What one check did: whether other files may now see the document differently, and
    its findings (``None``: the text was replaced meanwhile, no findings were made)."""

    others_changed: bool
    found: list[Diagnostic] | None


class Buffers:
    """The open documents' parsed texts and what the index last summarized of each.

    Used on the server's one checking thread only (:meth:`close` too, so that a check
    under way cannot put back what a close removed)."""

    def __init__(self, project: Projects) -> None:
        self.project = project
        self._parsed: dict[str, ParsedText] = {}
        self._summarized: dict[str, tuple[str, Summary | None]] = {}
        """Per file, the text last summarized into the index and the summary it made
        (the index still holds it unless the file or the configuration changed since)."""
        self._checked: dict[str, _Checked] = {}
        self._updates = 0
        """Summaries replaced in the index by this server (a buffer's, a file's from
        disk): with the scope's own counters, what a check's findings may depend on."""

    def check(self, path: Path, text: str, current: Callable[[], bool]) -> Outcome:
        """Summarize (if needed) and check ``text`` as the buffer of ``path``."""
        if not current():
            return Outcome(False, None)
        if not self._checked:
            timing("checks its first document")
        scope = self.project.scope_for(path)  # first: a buffer not on disk joins its index
        key = os.path.abspath(path)
        parsed = self._parsed[key] = parse_text(text, self._parsed.get(key))
        changed = self._summarize(key, path, parsed)
        if not current():
            return Outcome(changed, None)
        state = (self._updates, scope.generation, scope.version, scope.complete)
        last = self._checked.get(key)
        if last is not None and last.scope is scope and last.state == state and last.text == text:
            return Outcome(changed, last.found)
        found = self.project.check(path, text)
        self._checked[key] = _Checked(text, scope, state, found)
        self.project.scan_first(path)
        return Outcome(changed, found)

    def update_from_disk(self, path: Path) -> bool:
        """The file changed on disk, or its buffer was closed: the index reads it again
        (``Projects.update``); whether other files may see something new."""
        self._updates += 1
        return self.project.update(path, None)

    def _summarize(self, key: str, path: Path, parsed: ParsedText) -> bool:
        """Bring the index's summary of the file to ``parsed``; whether other files may
        see something new (see the module doc for a text that does not parse)."""
        if parsed.tree is None:
            return False
        last = self._summarized.get(key)
        if (
            last is not None
            and last[0] == parsed.text
            and self.project.summaries.get(key) is last[1]
            and last[1] is not None
        ):
            return False
        self._updates += 1
        changed = self.project.update(path, parsed.text, tree=parsed.tree)
        self._summarized[key] = (parsed.text, self.project.summaries.get(key))
        return changed

    def close(self, path: Path, from_disk: bool) -> bool:
        """The document was closed: its texts go, and the index reads the file from disk
        again if ``from_disk`` (it may be read); whether other files may see something
        new."""
        key = os.path.abspath(path)
        self._parsed.pop(key, None)
        self._summarized.pop(key, None)
        self._checked.pop(key, None)
        return from_disk and self.update_from_disk(path)


__all__ = ["Buffers", "Outcome"]
