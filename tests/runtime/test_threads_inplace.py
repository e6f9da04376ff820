"""Threads writing different slices of one array lose no write (issue 38).

JAX and TensorFlow arrays are immutable: a write through a view reads the root, scatters
into a new array and rebinds the root. Two threads doing that at once both read the old
data, and the later rebind dropped the other's write (JAX: 14 of 20 trials lost some).
"""

from __future__ import annotations

import sys
import threading

import numpy as np

import ivycheck.runtime as ivy

from .conftest import npy

THREADS = 8
ROUNDS = 25


def _run(target: object, count: int) -> None:
    workers = [threading.Thread(target=target, args=(i,)) for i in range(count)]  # type: ignore[arg-type]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def test_item_writes_to_different_elements_from_threads_all_land(backend: str) -> None:
    x = ivy.zeros((THREADS,))

    def work(i: int) -> None:
        for _ in range(ROUNDS):
            x[i] = x[i] + 1

    _run(work, THREADS)
    np.testing.assert_array_equal(npy(x), np.full(THREADS, ROUNDS, np.float32))


def test_slice_writes_through_views_from_threads_all_land(backend: str) -> None:
    x = ivy.zeros((THREADS, 4))

    def work(i: int) -> None:
        row = x[i]
        for _ in range(ROUNDS):
            row += 1

    _run(work, THREADS)
    np.testing.assert_array_equal(npy(x), np.full((THREADS, 4), ROUNDS, np.float32))


def test_mask_writes_from_threads_all_land(backend: str) -> None:
    x = ivy.zeros((THREADS,))
    positions = np.arange(THREADS)

    def work(i: int) -> None:
        mask = ivy.asarray(positions == i)
        for r in range(ROUNDS):
            x[mask] = float(r + 1)

    _run(work, THREADS)
    np.testing.assert_array_equal(npy(x), np.full(THREADS, ROUNDS, np.float32))


FIRST_VIEW_TRIALS = 40


def test_first_views_taken_from_threads_at_once_write_their_own_rows(backend: str) -> None:
    """The threads take their first views of a fresh array at the same moment: the root's
    geometry is made once. Each thread made its own on TensorFlow and JAX (about 1 trial in
    100), and the views whose buffer lost pointed nowhere: "index -1404792 is out of bounds"
    on the first write, the row left at 0."""
    failures: list[str] = []
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as on a loaded machine
    try:
        _first_views(failures)
    finally:
        sys.setswitchinterval(switching)


def _first_views(failures: list[str]) -> None:
    for _ in range(FIRST_VIEW_TRIALS):
        x = ivy.zeros((THREADS, 4))
        start = threading.Barrier(THREADS)

        def work(i: int, x: ivy.Array = x, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                row = x[i]
                row += 1
            except Exception as e:  # noqa: BLE001 - a thread's error is the test's failure
                failures.append(f"{type(e).__name__}: {e}")

        _run(work, THREADS)
        assert not failures
        np.testing.assert_array_equal(npy(x), np.ones((THREADS, 4), np.float32))


DISPATCH_WAIT = 2.0


def test_tensorflow_api_dispatch_never_checks_another_threads_arguments() -> None:
    """TensorFlow's ``Dispatch`` keeps a call's arguments in a buffer of the API's dispatcher
    and may run Python code while checking them (``isinstance`` against ``TensorProtocol``,
    for a type it has not met): another thread's call of the same API filled the buffer
    with its own arguments, and the first call was handed to the dispatch target of the
    other call's types (or, those arguments freed, the process crashed: 8 threads doing
    ``x[i] = x[i] + 1`` on a TensorFlow array). Here the check pauses inside ``Dispatch``
    while another thread adds two extension-type values: with the runtime's TensorFlow
    backend the other call waits for the first to finish dispatching."""
    import tensorflow as tf

    with ivy.using_backend("tensorflow"):
        pass  # the backend is imported, and with it its hold on TensorFlow's dispatch

    # (made by ``type``: an annotation in this module is a string naming no global)
    marked_type = type(
        "Marked", (tf.experimental.ExtensionType,), {"__annotations__": {"values": tf.Tensor}}
    )

    def marked_add(x: object, y: object, name: object = None) -> str:
        return "marked"

    tf.experimental.dispatch_for_api(tf.math.add, {"x": marked_type, "y": marked_type})(marked_add)
    paused, other_done = threading.Event(), threading.Event()

    class Convertible:  # a type TensorFlow's checkers have not met: Python runs in the check
        def __getattr__(self, name: str) -> object:
            if name != "__tf_tensor__":
                raise AttributeError(name)
            frames = [sys._getframe(k).f_code.co_name for k in range(1, 8)]
            in_dispatch = "__instancecheck__" in frames and "op_dispatch_handler" in frames
            if in_dispatch and not paused.is_set():
                paused.set()
                other_done.wait(DISPATCH_WAIT)  # the GIL is the other thread's
            return lambda dtype=None, name=None: tf.constant([1.0, 2.0])

    others: list[object] = []

    def other() -> None:
        paused.wait(60)
        marked = marked_type(tf.ones((2,)))  # kept alive: the first call may read it
        others.append(marked)
        others.append(tf.math.add(marked, marked))
        other_done.set()

    thread = threading.Thread(target=other)
    thread.start()
    try:
        mine = tf.math.add(Convertible(), tf.constant([1.0, 1.0]))
    finally:
        thread.join()
        tf.experimental.unregister_dispatch_for(marked_add)
    assert paused.is_set(), "the check no longer runs Python inside Dispatch: test nothing"
    assert others[1] == "marked"
    assert not isinstance(mine, str), f"the call was dispatched by the other's types: {mine!r}"
    np.testing.assert_array_equal(mine.numpy(), [2.0, 3.0])
