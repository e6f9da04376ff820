"""The server's one checking thread: the engine's deep-stack thread itself.

Every check, scan step and closed file's result runs on one thread, one at a time (the
server's state is kept without locks on that account: ``buffers``, ``workspace_results``).
The engine runs its analysis on its deep-stack thread
(:func:`~ivycheck.checker.base.isolation.call_with_deep_stack`), and directly when called
there. A checking thread of its own handed every keystroke's check over to that thread and
waited for it: a hand-over more per edit, about 0.3 ms of the server's ~20 ms
(``benchmarks/lsp_latency.py``). So the server's work is submitted to the deep-stack
thread, a single worker, in the order it is submitted.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import ParamSpec, TypeVar

from ivycheck.checker.base.isolation import submit_to_deep_stack

P = ParamSpec("P")
T = TypeVar("T")


class DeepStackThread(Executor):
    """An executor for ``loop.run_in_executor`` that runs on the deep-stack thread."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return submit_to_deep_stack(fn, *args, **kwargs)


__all__ = ["DeepStackThread"]
