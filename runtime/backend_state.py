"""The backend in use: which one, its module and primitive table, and loading a backend.

This is the low half of backend handling: everything below the dispatcher (``Array``,
views, ``inplace``) asks it which backend is in use, and it imports nothing of the runtime
but the backends' table and the exceptions. Switching -- binding every public function to
the backend's built dispatchers -- is :mod:`ivycheck.runtime.backend_handler`, above the
dispatcher.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any, cast

from ivycheck.runtime.backends import BACKENDS
from ivycheck.runtime.backends._common.primitives import Primitives
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
        """Backend name -> function name -> ``dispatch.build.Built``."""


state = _State()


def load(name: str) -> ModuleType:
    """Import the backend package ``name`` (raising a clear error when its framework is not
    installed)."""
    if name not in BACKENDS:
        raise IvyBackendException(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    module_name, pip_name = BACKENDS[name]
    if importlib.util.find_spec(module_name) is None:
        raise IvyBackendException(
            f"backend {name!r} needs the package {module_name!r}: pip install {pip_name} "
            "(or pip install 'ivycheck[backends]')"
        )
    return importlib.import_module(f"ivycheck.runtime.backends.{name}")


def enter(name: str, module: ModuleType) -> None:
    """Record ``module`` as the backend in use (its functions are bound by the caller)."""
    state.name = name
    state.module = module
    state.prims = cast(Primitives, module.primitives)


def _default() -> None:
    # Asked before ``ivycheck.runtime`` finished importing (its last line binds NumPy): the
    # default backend is recorded; a public function called meanwhile builds itself for it
    # on its first call (``dispatch.public``).
    enter(DEFAULT, load(DEFAULT))


def current_backend(*args: Any, **kwargs: Any) -> ModuleType:
    """The backend module in use; arguments are accepted for Ivy compatibility and ignored."""
    if state.module is None:
        _default()
    assert state.module is not None
    return state.module


def prims() -> Primitives:
    """The primitive table of the backend in use."""
    if state.prims is None:
        _default()
    assert state.prims is not None
    return state.prims


def native_array_class() -> type:
    """The backend's array class (``torch.Tensor`` ...): what ``ivy.NativeArray`` reads."""
    return prims().NATIVE_TYPES[0]


def current_backend_str() -> str:
    """Name of the backend in use (``"numpy"`` when none was set: NumPy is the default)."""
    return state.name
