"""Which backend is in use, and switching between them.

Setting a backend binds that backend's dispatchers, built once per backend
(``dispatch.build``), into the public functions (``dispatch.public.activate``). It writes
nothing into any namespace: each public function is one object for the life of the process,
bound once at import to its name in the namespace that exports it (``ivycheck.runtime``,
``ivycheck.runtime.linalg``, ``ivycheck.runtime.fft``), so no namespace can hold a function of
another (``ivy.fft`` stays the extension module) and a switch costs only the binding. The one
per-backend name, ``ivy.NativeArray``, is read from the state when accessed
(:func:`native_array_class`). Backends are imported on first use only: importing the runtime
costs NumPy and nothing else. The state itself is :mod:`ivycheck.runtime.backend_state`,
below the dispatcher, which reads it; this module sits above the dispatcher, which it drives.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from ivycheck.runtime import dtypes
from ivycheck.runtime.backend_state import (
    DEFAULT,
    current_backend,
    current_backend_str,
    load,
    native_array_class,
    prims,
    state,
)
from ivycheck.runtime.dispatch import public

__all__ = [
    "DEFAULT",
    "current_backend",
    "current_backend_str",
    "default_float_dtype",
    "native_array_class",
    "prims",
    "set_backend",
    "set_default_float_dtype",
    "state",
    "unset_backend",
    "using_backend",
]


def _activate(name: str) -> None:
    public.activate(name, load(name))


def set_backend(name: str) -> ModuleType:
    """Make ``name`` the backend of every following call (of every thread: the backend is
    one for the process); returns the backend module. One switch at a time
    (``public.SWITCH``)."""
    with public.SWITCH:
        _activate(name)
        state.stack.append(name)
        assert state.module is not None
        return state.module


def unset_backend() -> None:
    """Return to the backend set before (NumPy when none is left)."""
    with public.SWITCH:
        if state.stack:
            state.stack.pop()
        _activate(state.stack[-1] if state.stack else DEFAULT)


@contextmanager
def using_backend(name: str) -> Iterator[ModuleType]:
    """``with ivy.using_backend("jax"):`` -- set for the block, restored afterwards."""
    module = set_backend(name)
    try:
        yield module
    finally:
        unset_backend()


def set_default_float_dtype(dtype: object) -> None:
    """Make ``dtype`` (``ivy.float32``, the default, or ``ivy.float64``) the default float
    dtype of every later call on every backend -- Python floats, creation functions without
    ``dtype``, a Python float beside an integer array, ``fft.fftfreq`` -- and the complex dtype
    of its precision the default complex dtype.

    The built dispatchers hold the default's native dtype (``dispatch.build``: a creation
    function's hot path passes it without looking it up), so a change rebuilds the current
    backend's (about 50 ms) and drops the other backends' (rebuilt when next set): calls read
    nothing more than before. One change at a time, as a backend switch (``public.SWITCH``),
    and like one for the process, not per thread."""
    with public.SWITCH:
        dtypes.set_default_float(dtype)
        state.tables.clear()
        if state.name:
            _activate(state.name)


def default_float_dtype() -> dtypes.Dtype:
    """The default float dtype in use (``ivy.float32`` unless ``set_default_float_dtype``)."""
    return dtypes.default_float()
