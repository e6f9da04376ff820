"""Index arithmetic computed by NumPy for the backends that lack an indexing form.

PyTorch has no negative-step slices, TensorFlow no integer-array or mask indexing in
every place: they gather and scatter at the positions NumPy's own indexing selects, so
every backend has NumPy's semantics exactly.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.primitives import Index


def positions(shape: tuple[int, ...], query: Any) -> Index:
    """Multi-index that ``query`` selects from an array of ``shape``, computed by NumPy.

    Lets a backend without some indexing form (negative steps on PyTorch, integer arrays on
    TensorFlow) gather with NumPy's exact semantics through ``primitives.take``.
    """
    return tuple(np.unravel_index(flat_positions(shape, query), shape))


def plain_query(query: Any) -> Any:
    """``query`` with 0-d integer arrays and slice bounds made Python ints (``operator.index``).

    ``x[a:b]`` with ``a``, ``b`` 0-d arrays is valid in the standard; TensorFlow's slicing
    takes only int32/int64 tensors and ivy arrays not at all.
    """
    if isinstance(query, tuple):
        return tuple(plain_query(q) for q in query)
    if isinstance(query, slice):
        return slice(*(None if v is None else operator.index(v) for v in _bounds(query)))
    if not isinstance(query, (int, bool, type(None), type(Ellipsis))) and _integer_scalar(query):
        return operator.index(query)
    return query


def _bounds(s: slice) -> tuple[Any, Any, Any]:
    return s.start, s.stop, s.step


def _integer_scalar(value: Any) -> bool:
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    return shape is not None and len(shape) == 0 and "int" in str(dtype)


def flat_positions(shape: tuple[int, ...], query: Any) -> np.ndarray:
    """Flat (row-major) positions ``query`` selects from an array of ``shape``, in the result's
    shape. Unlike :func:`positions` it also describes what a 0-d array's mask selects."""
    items = query if isinstance(query, tuple) else (query,)
    # Native arrays as NumPy arrays: an empty tensor would otherwise be read as an empty
    # list of integer indices, not as a boolean mask.
    items = tuple(np.asarray(i) if _is_native_array(i) else i for i in items)
    selected: np.ndarray = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)[items]
    return selected


def _is_native_array(value: Any) -> bool:
    return hasattr(value, "__array__") and hasattr(value, "shape")
