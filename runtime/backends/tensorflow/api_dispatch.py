"""TensorFlow's type-based API dispatch, made one call at a time across threads.

Most TensorFlow APIs (``tf.math.add``, ``tf.reshape`` ...) first ask a dispatcher of
their own -- a ``PythonAPIDispatcher``, one per API -- whether an argument's type has an
override (ragged tensors, extension types). Its ``Dispatch`` (C++) writes the call's
arguments, borrowed, into a buffer owned by the *dispatcher*, then checks them one by one.
A checker meets each argument type once with ``isinstance`` against ``TensorProtocol``, a
``typing`` Protocol whose ``__instancecheck__`` is Python code; another thread may take the
GIL there and call the same API, whose ``Dispatch`` fills the buffer with its own arguments
and returns, freeing them. The first thread then checks the other call's freed arguments:
a segmentation fault, or its call handed to the dispatch target the other call's types
chose (8 threads doing ``x[i] = x[i] + 1`` on one TensorFlow array, at a switch interval of
10 us: 2 of 15 processes failed with the C paths -- a segfault; ``add`` sent to the ragged
target, which raised, a write lost -- and 2 of 11 segfaulted with the Python paths; each
in a process's first trial, where it was recorded: the checkers meet ``EagerTensor`` then;
``tests/runtime/test_threads_inplace.py`` shows the mechanism with TensorFlow's own calls).
The runtime calls TensorFlow from whatever thread calls it, so :func:`serialize_api_dispatch` makes
``Dispatch`` exclusive: one lock held for the call, re-entrant (a dispatch target that calls
another API dispatches again in its thread). It is held only while the dispatcher checks
types (and runs a target it chose); the kernels that plain tensors run afterwards do not
hold it, so threads still compute at once. The change is TensorFlow's class, so it holds for
every caller in the process, not only the runtime's.
"""

from __future__ import annotations

import threading
from typing import Any

from tensorflow.python.framework import _pywrap_python_api_dispatcher as api_dispatcher

LOCK = threading.RLock()
"""Held by every ``PythonAPIDispatcher.Dispatch`` call once :func:`serialize_api_dispatch`
ran."""


def serialize_api_dispatch() -> None:
    """Make ``PythonAPIDispatcher.Dispatch`` hold :data:`LOCK` (once; later calls do nothing).

    TensorFlow calls it at one place, ``api_dispatcher.Dispatch(args, kwargs)`` in
    ``tensorflow/python/util/dispatch.py``, an attribute read at each call: the method set
    on the class is the one every dispatcher uses from then on.
    """
    cls: Any = api_dispatcher.PythonAPIDispatcher
    native = cls.Dispatch
    if getattr(native, "__ivy_serialized__", False):
        return

    def dispatch(self: Any, args: Any, kwargs: Any) -> Any:
        with LOCK:
            return native(self, args, kwargs)

    dispatch.__name__ = dispatch.__qualname__ = "Dispatch"
    dispatch.__doc__ = native.__doc__
    dispatch.__ivy_serialized__ = True  # type: ignore[attr-defined]
    cls.Dispatch = dispatch
