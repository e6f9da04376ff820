"""Run analysis on a thread with a deep stack.

libcst walks trees recursively, and some real files (CPython's ``pydoc_data/topics.py``,
generated tables, deeply nested expressions) overflow the default stack: Fixit dies on
them. Running each file's analysis on a thread with a 256 MiB stack and a high recursion
limit turns those files into ordinary results, and a file deeper still into a
``RecursionError`` that the engine reports as a diagnostic instead of a crashed process.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

STACK_BYTES = 256 * 1024 * 1024
RECURSION_LIMIT = 20_000

P = ParamSpec("P")
T = TypeVar("T")

_executor: ThreadPoolExecutor | None = None
_lock = threading.Lock()


def _reset_after_fork() -> None:
    global _executor
    _executor = None


os.register_at_fork(after_in_child=_reset_after_fork)


def _deep_executor() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            previous = threading.stack_size(STACK_BYTES)
            try:
                executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ivycheck-deep")
                executor.submit(int).result()  # start the thread while the size is set
            finally:
                threading.stack_size(previous)
            sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
            _executor = executor
        return _executor


def call_with_deep_stack(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` on the deep-stack thread; exceptions propagate unchanged."""
    if threading.current_thread().name.startswith("ivycheck-deep"):
        return fn(*args, **kwargs)
    return _deep_executor().submit(fn, *args, **kwargs).result()
