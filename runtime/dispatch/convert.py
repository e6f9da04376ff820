"""Conversions at the dispatcher's edges: arguments to native ones, results back to ``Array``.

Shared by both tiers of a dispatcher (``public``'s hot paths inline the common case of
:func:`wrap` instead of calling it: a Python call per call is what they exist to avoid).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ivycheck.runtime.array import Array, bare_array
from ivycheck.runtime.backend_state import current_backend
from ivycheck.runtime.dtypes import SCALAR_TYPES


def to_native_args(a: Any) -> Any:
    """Arrays (also inside tuples/lists) as their native arrays; anything else unchanged."""
    if isinstance(a, Array):
        return a._data
    if type(a) in (tuple, list):
        return type(a)(to_native_args(i) for i in a)
    return a


def to_numpy_args(a: Any) -> Any:
    """Arguments of a view function, as NumPy sees them when it computes the geometry."""
    if isinstance(a, Array):
        return a.__array__()
    if type(a) in (tuple, list):
        return type(a)(to_numpy_args(i) for i in a)
    if hasattr(a, "__array__") and not isinstance(a, SCALAR_TYPES):
        return np.asarray(a)
    return a


def numpy_keeps_view(
    geometry_fn: Callable[..., Any], x: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> bool:
    """Whether NumPy's own function, on a stand-in of ``x``'s shape, returns a view.

    Integer indexing down to a 0-d result gives a NumPy scalar (a copy), while PyTorch
    returns a 0-d view; ``x[..., 0]`` stays a 0-d view in both.
    """
    stand_in = np.empty(x.shape, dtype=np.uint8)
    np_kwargs = {k: to_numpy_args(v) for k, v in kwargs.items()}
    result = geometry_fn(stand_in, *to_numpy_args(args[1:]), **np_kwargs)
    return isinstance(result, np.ndarray) and np.shares_memory(result, stand_in)


def wrap(ret: Any, native_types: tuple[type, ...]) -> Any:
    r"""A backend result as ``Array``\ s (inside tuples, lists and named tuples too)."""
    if isinstance(ret, native_types):
        new = bare_array()  # ``Array(ret)`` without re-checking what ``ret`` is
        new._data = ret
        return new
    if type(ret) in (tuple, list):
        return type(ret)(wrap(r, native_types) for r in ret)
    if isinstance(ret, tuple) and hasattr(ret, "_fields"):  # a named tuple keeps its type
        return type(ret)(*(wrap(r, native_types) for r in ret))
    if hasattr(ret, "dtype") and hasattr(ret, "shape"):  # NumPy scalars from reductions
        return Array(current_backend().primitives.asarray(ret, None, None))
    return ret
