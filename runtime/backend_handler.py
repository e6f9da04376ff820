"""Which backend is in use, and switching between them.

Setting a backend binds that backend's implementations, built once per backend
(``func_wrapper.build``), into the public functions (``func_wrapper.activate``). It writes
nothing into any namespace: each public function is one object for the life of the process,
bound once at import to its name in the namespace that exports it (``ivycheck.runtime``,
``ivycheck.runtime.linalg``, ``ivycheck.runtime.fft``), so no namespace can hold a function of
another (``ivy.fft`` stays the extension module) and a switch costs only the binding. The one
per-backend name, ``ivy.NativeArray``, is read from the state here when accessed
(:func:`native_array_class`). Backends are imported on first use only: importing the runtime costs
NumPy and nothing else.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any, cast

from ivycheck.runtime.backends import BACKENDS, Primitives
from ivycheck.runtime.exceptions import IvyBackendException

DEFAULT = "numpy"


class _State:
    """The backend in use; a stack so that ``using_backend`` restores what was set before."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.name = ""
        self.module: ModuleType | None = None
        self.prims: Primitives | None = None
        self.tables: dict[str, dict[str, Any]] = {}
        """Backend name -> function name -> ``func_wrapper.Built``."""


state = _State()


def _load(name: str) -> ModuleType:
    if name not in BACKENDS:
        raise IvyBackendException(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    module_name, pip_name = BACKENDS[name]
    if importlib.util.find_spec(module_name) is None:
        raise IvyBackendException(
            f"backend {name!r} needs the package {module_name!r}: pip install {pip_name} "
            "(or pip install 'ivycheck[backends]')"
        )
    return importlib.import_module(f"ivycheck.runtime.backends.{name}")


def _activate(name: str) -> None:
    from ivycheck.runtime import func_wrapper

    module = _load(name)
    func_wrapper.activate(name, module)
    state.name = name
    state.module = module
    state.prims = cast(Primitives, module.primitives)


def set_backend(name: str) -> ModuleType:
    """Make ``name`` the backend of every following call; returns the backend module."""
    _activate(name)
    state.stack.append(name)
    assert state.module is not None
    return state.module


def unset_backend() -> None:
    """Return to the backend set before (NumPy when none is left)."""
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


def current_backend_str() -> str:
    """Name of the backend in use (``"numpy"`` when none was set: NumPy is the default)."""
    return state.name


def current_backend(*args: Any, **kwargs: Any) -> ModuleType:
    """The backend module in use; arguments are accepted for Ivy compatibility and ignored."""
    if state.module is None:
        _activate(DEFAULT)
    assert state.module is not None
    return state.module


def prims() -> Primitives:
    """The primitive table of the backend in use."""
    if state.prims is None:
        _activate(DEFAULT)
    assert state.prims is not None
    return state.prims


def native_array_class() -> type:
    """The backend's array class (``torch.Tensor`` ...): what ``ivy.NativeArray`` reads."""
    return prims().NATIVE_TYPES[0]
