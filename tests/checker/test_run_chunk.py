"""A chunk of files is handed to the deep-stack thread whole (``checker/run/runner.py``:
``_run_chunk``): one hand-over per chunk instead of one per file, and a Ctrl-C while the
command waits for it stops the loop after the file it is at."""

from __future__ import annotations

import signal
import threading

import pytest

from ivycheck.checker.base.isolation import submit_to_deep_stack
from ivycheck.checker.run import runner


def test_a_chunk_runs_on_the_deep_stack_thread_in_order() -> None:
    seen: list[tuple[int, str]] = []

    def work(item: int) -> int:
        seen.append((item, threading.current_thread().name))
        return item * 2

    assert runner._run_chunk(work, [1, 2, 3]) == [2, 4, 6]
    assert [item for item, _ in seen] == [1, 2, 3]
    assert {name.split("_")[0] for _, name in seen} == {"ivycheck-deep"}


def test_an_exception_of_an_item_reaches_the_caller() -> None:
    def work(item: int) -> int:
        raise ValueError(item)

    with pytest.raises(ValueError, match="7"):
        runner._run_chunk(work, [7, 8])


def test_an_interrupt_while_waiting_stops_the_loop_after_the_current_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    done: list[int] = []
    main = threading.main_thread().ident
    assert main is not None
    left = threading.Event()

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    def work(item: int) -> int:
        if item == 1:
            signal.pthread_kill(main, signal.SIGINT)  # Ctrl-C, as the main thread waits
            left.wait(timeout=30)  # this item still runs when the main thread is told
        done.append(item)
        return item

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        with pytest.raises(KeyboardInterrupt):
            runner._run_chunk(work, list(range(1, 200)))
    finally:
        left.set()
        signal.signal(signal.SIGINT, previous)
    submit_to_deep_stack(int).result()  # the chunk's loop has returned
    assert done == [1]
