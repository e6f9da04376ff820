"""Run analysis on a thread with a deep stack.

libcst walks trees recursively, and some real files (CPython's ``pydoc_data/topics.py``,
generated tables, deeply nested expressions) overflow the default stack: Fixit dies on
them. Running each file's analysis on a thread with a 256 MiB stack and a high recursion
limit turns those files into ordinary results, and a file deeper still into a
``RecursionError`` that the engine reports as a diagnostic instead of a crashed process.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
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
                # Started while the size is set; Ctrl-C is left to the main thread, which
                # waits on this one: a signal the kernel handed this thread would wake no
                # waiter until the work handed over (a whole chunk of files) was done.
                executor.submit(_leave_interrupts_to_the_main_thread).result()
            finally:
                threading.stack_size(previous)
            sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
            _executor = executor
        return _executor


def _leave_interrupts_to_the_main_thread() -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def on_deep_stack() -> bool:
    """Whether this is the deep-stack thread (where :func:`call_with_deep_stack` calls
    directly)."""
    return threading.current_thread().name.startswith("ivycheck-deep")


def call_with_deep_stack(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` on the deep-stack thread; exceptions propagate unchanged."""
    if on_deep_stack():
        return fn(*args, **kwargs)
    return _deep_executor().submit(fn, *args, **kwargs).result()


def submit_to_deep_stack(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
    """``fn(*args, **kwargs)`` started on the deep-stack thread; the caller waits on the
    future. A caller with many files hands over its whole loop at once, not each file:
    a hand-over costs about 0.1 ms of CPU (0.25 ms of waiting), a tenth of a small
    file's check. Waiting can be interrupted (Ctrl-C) while ``fn`` goes on: a long ``fn``
    should look at a flag the caller sets then, and stop."""
    return _deep_executor().submit(fn, *args, **kwargs)
