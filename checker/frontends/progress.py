"""The progress line of a long run: ``ivycheck: checking 312/756 files``, redrawn in place.

A 48 s ``--fix`` that prints nothing until the end looks hung. Like ruff's and pytest's,
the counter is for a person at a terminal only: it goes to standard error, only when that
is a terminal, never in CI (``CI`` set) or with ``--quiet``, and only once the run has
taken longer than a second, so a quick run looks exactly as before. It is one line
redrawn with a carriage return and wiped before anything else is written to the
terminal, so the report and the summary never carry a trace of it.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

DELAY = 1.0
"""Seconds a run takes before the line appears."""
INTERVAL = 0.1
"""Seconds between two redraws at most: a redraw per file would cost more than it tells."""


def shows_progress(stream: TextIO, quiet: bool) -> bool:
    """Whether a run reporting to ``stream`` draws the progress line."""
    if quiet or os.environ.get("CI", "").lower() not in ("", "0", "false"):
        return False
    return stream.isatty()


class ProgressLine:
    """``(phase, done, total)`` from the runner, drawn on one line of ``stream``."""

    def __init__(self, stream: TextIO, delay: float = DELAY, interval: float = INTERVAL) -> None:
        self.stream = stream
        self.interval = interval
        self.start = time.monotonic()
        self.show_from = self.start + delay
        self.last_drawn = 0.0
        self.width = 0
        """The length of the text on the line now (0: nothing drawn)."""

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now < self.show_from or (now - self.last_drawn < self.interval and done < total):
            return
        self.last_drawn = now
        self._draw(f"ivycheck: {phase} {done}/{total} files")

    def _draw(self, text: str) -> None:
        padding = " " * max(self.width - len(text), 0)
        self.stream.write(f"\r{text}{padding}")
        self.stream.flush()
        self.width = len(text)

    def clear(self) -> None:
        """Wipe the line (before the report, the summary or an error is written)."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
