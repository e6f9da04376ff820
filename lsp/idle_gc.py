"""Garbage collection when the editor is idle, not in the middle of a keystroke's check.

Parsing a 2,000-line buffer allocates some 100,000 objects per keystroke, so CPython's
allocation-triggered collector ran several times inside almost every check and turned a
20 ms parse into 60-120 ms now and then: the slowest edits were collector pauses
(``benchmarks/lsp_latency.py`` on a 20k-function workspace). The server therefore turns
automatic collection off and collects here: once the client has been quiet for
``IDLE_SECONDS``, and in any case after ``MAX_CHECKS_BETWEEN`` checks, so that garbage
cycles stay bounded while someone types without pause.

That second collection takes the young generations only: a keystroke's garbage (the
parse of the buffer) is young, while a full collection walks every object the server
holds (the workspace's summaries and closed files' results, hundreds of MiB at 20k
functions): done between two keystrokes, it held the next one 0.5-1.4 s (the 39th edit
of ``benchmarks/lsp_latency.py``, every run). Full collections happen when idle only.

A young collection is cheap only if the young generations are small; with automatic
collection off, everything made since the last collection is young, and after the
workspace scan or a round of closed files' results that is most of the server's memory.
:meth:`IdleCollector.after_batch` collects right after such a batch and then freezes
what survived (``gc.freeze``: the index, the closed files' results), so that no later
collection walks it: the collection after ``MAX_CHECKS_BETWEEN`` keystrokes walks a few
keystrokes' objects, and so does the idle one. An idle collection that walked the whole
index took 0.2-0.6 s at 5,000 functions, and a keystroke after a pause of half a second
waited for it (``benchmarks/lsp_latency.py --pause 0.3``). Frozen objects that become
garbage are still freed by reference counting (summaries and results hold no cycles).
"""

from __future__ import annotations

import asyncio
import gc

IDLE_SECONDS = 0.5
MAX_CHECKS_BETWEEN = 40


class IdleCollector:
    """Owns the decision to collect for one server process."""

    def __init__(self) -> None:
        self._checks = 0
        self._timer: asyncio.TimerHandle | None = None
        self.collections = 0

    def start(self) -> None:
        """Hand collection over from the allocator to this object."""
        gc.disable()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.enable()

    def checked(self) -> None:
        """A check's result went out (event loop): collect now if typing never pauses."""
        self._checks += 1
        if self._checks >= MAX_CHECKS_BETWEEN:
            self.collect(generation=1)

    def activity(self, loop: asyncio.AbstractEventLoop) -> None:
        """A message arrived (event loop): postpone the idle collection."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = loop.call_later(IDLE_SECONDS, self._idle)

    def _idle(self) -> None:
        self._timer = None
        if self._checks:
            self.collect()

    def after_batch(self) -> None:
        """A large batch of long-lived objects was made (the index, closed files'
        results): collect, then move what survives out of every generation (see the
        module doc)."""
        self.collect()
        gc.freeze()

    def collect(self, generation: int = 2) -> None:
        self._checks = 0
        self.collections += 1
        gc.collect(generation)
