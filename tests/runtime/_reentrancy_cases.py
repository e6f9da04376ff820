"""Re-entrancy reproducers, run as a script by ``test_reentrancy.py`` in a process of their own.

    python tests/runtime/_reentrancy_cases.py CASE [CASE ...]

Each case prints one line, ``CASE: outcome``, where the outcome is what a user sees (the
result's type, dtype and values, or the error's class and message, memory addresses
removed). The test runs the same cases with the C paths and with ``IVYCHECK_PURE_PYTHON=1``
and compares the lines: the Python paths are the reference. A case that crashes the process
(a segfault, an AddressSanitizer report under ``make test-sanitize``) fails the test by its
exit status. Each case is code a user can write: a dtype or key whose ``__hash__``,
``__eq__`` or ``__index__`` switches the backend or rebinds an array's data, a list whose
items' type shrinks it while it is read, a native array whose ``__array_ufunc__`` switches
the backend during the native call, gc callbacks and threads that switch the backend while
other code computes.
"""

from __future__ import annotations

import gc
import pickle
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import state

THREAD_SECONDS = 3.0
"""How long threads switch the backend while others compute (the reported crash took under a
second)."""


def outcome(fn: Callable[[], Any]) -> str:
    """What ``fn()`` gives, as one line that does not depend on the process."""
    try:
        got = fn()
    except Exception as e:  # noqa: BLE001 - the error is the outcome
        text = f"raises {type(e).__name__}: {e}"
    else:
        text = describe(got)
    return re.sub(r"0x[0-9a-f]+", "0x?", text)


def describe(value: Any) -> str:
    if isinstance(value, Array):
        data = value._data
        values = np.asarray(data.numpy() if hasattr(data, "numpy") else data)
        return f"Array of {type(data).__name__} {values.dtype} {values.tolist()}"
    if isinstance(value, np.ndarray):
        return f"ndarray {value.dtype} {value.tolist()}"
    return f"{type(value).__name__} {value!r}"


def vector(dtype: str = "float32") -> Array:
    return ivy.asarray(np.arange(8).astype(dtype))


def switching_to(name: str) -> Callable[[], None]:
    """A callback switching to ``name`` once (``set_backend``, as a user's code would)."""
    done = []

    def switch() -> None:
        if not done:
            done.append(True)
            ivy.set_backend(name)

    return switch


class Dtype:
    """A dtype argument whose hash runs ``on_hash`` and equals ``"float64"``'s: a key the cast
    table has answered (``cast_known``), reached after the callback ran."""

    def __init__(self, on_hash: Callable[[], None]) -> None:
        self.on_hash = on_hash

    def __hash__(self) -> int:
        self.on_hash()
        return hash("float64")

    def __eq__(self, other: object) -> bool:
        return other == "float64"


def case_astype_hash_frees_data() -> str:
    # ``__hash__`` rebinds ``x._data``: the data read before the lookup is the one cast
    x = vector()
    ivy.astype(x, "float64")  # the cast table answers "float64" from now on

    def rebind() -> None:
        x._data = np.zeros(3, np.float32)

    return outcome(lambda: ivy.astype(x, Dtype(rebind)))


def case_astype_hash_switches() -> str:
    x = vector()
    ivy.astype(x, "float64")
    return outcome(lambda: ivy.astype(x, Dtype(switching_to("torch"))))


def case_astype_hash_raises_key_error() -> str:
    class Raising:
        def __hash__(self) -> int:
            raise KeyError("no hash")

    return outcome(lambda: ivy.astype(vector(), Raising()))


def case_astype_hash_raises_value_error() -> str:
    class Raising:
        def __hash__(self) -> int:
            raise ValueError("no hash")

    return outcome(lambda: ivy.astype(vector(), Raising()))


def case_astype_eq_switches() -> str:
    # the lookup finds "float64" by ``__eq__``, which switches the backend
    class Equal:
        def __hash__(self) -> int:
            return hash("float64")

        def __eq__(self, other: object) -> bool:
            switching_to("torch")()
            return other == "float64"

    x = vector()
    ivy.astype(x, "float64")
    return outcome(lambda: ivy.astype(x, Equal()))


def shrinking_list(extra: int) -> list[Any]:
    """``[2, 3, 3, ...]`` whose first item's type empties the list when hashed (the test of
    plain values hashes each item's type), and then equals ``int``: found plain, the walk
    goes on to the next item."""
    items: list[Any] = []

    class Shrinking(type):
        def __hash__(cls) -> int:
            del items[:]
            return hash(int)

        def __eq__(cls, other: object) -> bool:
            return cls is other or other is int

    class Size(int, metaclass=Shrinking):
        pass

    items.extend([Size(2), *([3] * extra)])
    return items


def case_zeros_of_a_shrinking_list() -> str:
    items = shrinking_list(200)
    return outcome(lambda: ivy.zeros(items))


def case_full_of_a_shrinking_shape() -> str:
    items = shrinking_list(50)
    return outcome(lambda: ivy.full(items, 1.0))


def case_reshape_to_a_growing_tuple() -> str:
    class Growing(type):
        def __hash__(cls) -> int:
            sizes.append(1)
            return hash(int)

        def __eq__(cls, other: object) -> bool:
            return cls is other or other is int

    class Size(int, metaclass=Growing):
        pass

    sizes: list[Any] = []
    return outcome(lambda: ivy.reshape(vector(), (Size(2), 4)))


def switching_size(value: int) -> Any:
    """An int whose type switches the backend to PyTorch when hashed (the test of plain values
    hashes each item's type), then equals ``int``: found plain."""

    class Switching(type):
        def __hash__(cls) -> int:
            switching_to("torch")()
            return hash(int)

        def __eq__(cls, other: object) -> bool:
            return cls is other or other is int

    class Size(int, metaclass=Switching):
        pass

    return Size(value)


def case_zeros_of_a_shape_that_switches() -> str:
    return outcome(lambda: ivy.zeros((switching_size(2), 3)))


def case_reshape_to_a_shape_that_switches() -> str:
    return outcome(lambda: ivy.reshape(vector(), (switching_size(2), 4)))


class Index:
    """An index whose ``__index__`` runs ``on_index`` first (the native array reads it)."""

    def __init__(self, value: int, on_index: Callable[[], None]) -> None:
        self.value, self.on_index = value, on_index

    def __index__(self) -> int:
        self.on_index()
        return self.value


def case_item_index_switches() -> str:
    x = vector()
    return outcome(lambda: x[slice(Index(1, switching_to("torch")), 5)])


def case_item_index_switches_then_fails() -> str:
    x = vector()
    return outcome(lambda: x[slice(Index(1, switching_to("torch")), 5, 0)])


def case_item_index_rebinds_data() -> str:
    x = vector()

    def rebind() -> None:
        x._data = np.zeros(2, np.float32)

    return outcome(lambda: x[slice(Index(1, rebind), 5)])


def case_item_index_deletes_data() -> str:
    x = vector()

    def delete() -> None:
        del x._data

    return outcome(lambda: (x[slice(Index(1, delete), 5)], x[1:2]))


class Switching(np.ndarray):
    """A native array whose ufuncs switch the backend during the native call."""

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        switching_to("torch")()
        plain = [np.asarray(i) for i in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(o) for o in kwargs["out"])
        return getattr(ufunc, method)(*plain, **kwargs)


def switching_vector() -> Array:
    return ivy.Array(np.arange(8, dtype=np.float32).view(Switching))


def case_unary_call_switches() -> str:
    return outcome(lambda: ivy.abs(switching_vector()))


def case_binary_call_switches() -> str:
    return outcome(lambda: ivy.add(switching_vector(), vector()))


def case_out_call_switches() -> str:
    out = vector()
    return outcome(lambda: (ivy.add(switching_vector(), vector(), out=out), out)[1])


def case_failed_out_is_not_retried() -> str:
    # NumPy's integer power writes some of ``out`` before it refuses a negative exponent;
    # a second try would read the exponents it wrote
    base = ivy.asarray(np.array([2, 3, 4, 5], dtype=np.int8))
    exponent = ivy.asarray(np.array([1, -1, 2, -2], dtype=np.int8))
    error = outcome(lambda: ivy.pow(base, exponent, out=exponent))
    return f"{error}; out {ivy.to_numpy(exponent).tolist()}"


def case_failed_unary_out_is_not_retried() -> str:
    x = ivy.asarray(np.array([1.0, 2.0], dtype=np.float64))
    out = ivy.asarray(np.array([7, 7], dtype=np.int8))
    error = outcome(lambda: ivy.sqrt(x, out=out))
    return f"{error}; out {ivy.to_numpy(out).tolist()}"


def case_pickle_every_protocol() -> str:
    x = vector()
    return "; ".join(
        f"{p}: {outcome(lambda p=p: pickle.loads(pickle.dumps(x, protocol=p)))}"
        for p in range(pickle.HIGHEST_PROTOCOL + 1)
    )


def calls(x: Array, y: Array, out: Array) -> list[Callable[[], Any]]:
    """Calls of every C path: of values, of one and two arrays, the cast table, ``x[key]``,
    ``out=``."""
    return [
        lambda: ivy.abs(x),
        lambda: ivy.add(x, y),
        lambda: ivy.zeros((3,)),
        lambda: ivy.full((2,), 1.0),
        lambda: x[1:3],
        lambda: ivy.astype(x, "float64"),
        lambda: ivy.reshape(x, (2, 4)),
        lambda: ivy.add(x, y, out=out),
        lambda: ivy.abs(x, out=out),
    ]


def case_gc_callback_switches() -> str:
    # a gc callback switches the backend while the calls below are in flight
    backends = ["torch", "numpy"]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            backends.reverse()
            ivy.set_backend(backends[0])

    gc.callbacks.append(callback)
    gc.set_threshold(5)
    try:
        made = 0
        for _ in range(300):
            x, y, out = vector(), vector(), vector()
            for call in calls(x, y, out):
                try:
                    call()
                except Exception:  # noqa: BLE001 - arrays of two backends may not mix
                    continue
                made += 1
            cycle: list[Any] = []
            cycle.append(cycle)  # garbage for the collector
    finally:
        gc.callbacks.remove(callback)
        gc.set_threshold(700)
    return "done" if made else "no call answered"


def case_threads_switch_while_others_compute() -> str:
    # one thread switches the backend as fast as it can while two others compute
    names = ["numpy", "torch", "jax", "tensorflow"]
    for name in names:  # imported and built first: the threads switch, not import
        with ivy.using_backend(name):
            for call in calls(vector(), vector(), vector()):
                call()
    stop = threading.Event()
    answered = [0, 0]

    def switch() -> None:
        i = 0
        while not stop.is_set():
            ivy.set_backend(names[i % len(names)])
            i += 1

    def compute(k: int) -> None:
        while not stop.is_set():
            x, y, out = vector(), vector(), vector()
            for call in calls(x, y, out):
                try:
                    call()
                except Exception:  # noqa: BLE001 - arrays of two backends may not mix
                    continue
                answered[k] += 1

    threads = [threading.Thread(target=switch)]
    threads += [threading.Thread(target=compute, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    time.sleep(THREAD_SECONDS)
    stop.set()
    for t in threads:
        t.join()
    ivy.set_backend("numpy")
    return "done" if all(answered) else f"no call answered {answered}"


CASES = {
    name.removeprefix("case_"): fn for name, fn in globals().items() if name.startswith("case_")
}


def main(names: list[str]) -> None:
    for name in names:
        state.stack.clear()  # each case from NumPy, whatever the one before switched to
        ivy.set_backend("numpy")
        print(f"{name}: {CASES[name]()}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
