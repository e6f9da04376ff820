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
    "native_array_class",
    "prims",
    "set_backend",
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
