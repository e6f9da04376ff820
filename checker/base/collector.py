"""Pausing CPython's cyclic garbage collector around work that allocates much and frees by
reference counting: (un)pickling the result cache, parsing and walking a run's files.
Allocation-triggered collections there traverse large live heaps and find nothing."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """No automatic collection inside; the collector's previous state afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
