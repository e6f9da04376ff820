"""Dask primitives: arrays are lazy task graphs and immutable, so every write rebinds.

A Dask array is a graph of NumPy chunks. Nothing here computes except :func:`to_numpy` and
:func:`to_dlpack` (the user asked for values) and :func:`shape` of an array whose chunk
sizes depend on its values (Dask gives ``nan``; the standard's shapes are integers). A
write builds a new graph -- Dask's own item assignment on a fresh ``Array`` object, never on
the one the caller holds -- which the ``Array`` is rebound to, as on JAX; so a view, an
``out`` or an in-place operator costs nothing until the values are asked for.
"""

# mypy: disable-error-code="no-untyped-call"
# (dask.array has no type hints)

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ivycheck.runtime.backends._common.package import (
    remembered_accumulation,
    remembered_defaults,
    remembered_dtypes,
    remembered_targets,
)
from ivycheck.runtime.backends._common.primitives import Index
from ivycheck.runtime.dtypes import Dtype

NAME = "dask"
NATIVE_TYPES: tuple[type, ...] = (da.Array,)
NUMPY_VIEWS = False
ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]] = {}
NEGATIVE_STEPS = True

CHUNKS = "auto"
"""How arrays the backend makes from Python or NumPy values are chunked: ``"auto"`` follows
Dask's ``array.chunk-size`` setting (128 MiB unless ``dask.config.set`` says otherwise), so
chunking is chosen by Dask and settable the way every Dask user sets it; an array the user
wraps (``ivy.Array(dask_array)``) keeps its own chunks, and results follow their inputs'."""

# Dask arrays carry NumPy dtypes: the native dtype of a name, the default dtype of Python
# values (``arange``, ``full``), of any dtype argument (``astype``), and what ``sum``/``prod``/
# ``trace`` accumulate a native dtype in, each answer kept (``_common.package``).
native_dtype = remembered_dtypes(np.dtype)
default_native, target_dtype = remembered_defaults(native_dtype), remembered_targets(native_dtype)
accumulation = remembered_accumulation(native_dtype, str)


def dtype_name(x: Any) -> str:
    """The dtype name."""
    return str(x.dtype)


def shape(x: Any) -> tuple[int, ...]:
    """The shape as ints; chunk sizes that depend on values (``nan``) are computed first."""
    if any(n != n for n in x.shape):  # NaN: a boolean mask's result
        x.compute_chunk_sizes()
    return tuple(int(n) for n in x.shape)


def lazy(value: Any, dtype: Any = None) -> Any:
    """``value`` (a NumPy array, a NumPy or Python scalar, nested sequences) as a Dask array
    of ``CHUNKS``."""
    return da.from_array(np.asarray(value, dtype=dtype), chunks=CHUNKS)


def asarray(obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any:
    """A Dask array of ``obj``; a Dask array of another dtype is cast lazily.

    Anything else is copied into the graph (``da.from_array`` copies what it is given: a
    later write to a NumPy buffer never shows), so ``copy=False`` refuses it with the
    standard's ``ValueError``."""
    native = None if dtype is None else np.dtype(str(dtype))
    if isinstance(obj, da.Array):
        return obj if native is None or obj.dtype == native else obj.astype(native)
    if copy is False:
        raise ValueError(
            "asarray: copy=False, but a Dask array holds a copy of the values it is made "
            f"from (here a {type(obj).__qualname__}): a copy is needed"
        )
    return da.from_array(np.asarray(obj, dtype=native), chunks=CHUNKS)


def to_numpy(x: Any) -> np.ndarray:
    """The values, computed (a NumPy array of its own)."""
    return np.array(x.compute(), copy=True)


def copy(x: Any) -> Any:
    """A new graph node: immutable values need no buffer of their own, but the result is
    another object, so rebinding one never touches the other."""
    return x.map_blocks(np.copy, dtype=x.dtype)


def cast(x: Any, dtype: Dtype | str) -> Any:
    """Unsafe cast, lazily."""
    return (x if isinstance(x, da.Array) else asarray(x, None, None)).astype(str(dtype))


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``da.broadcast_to``."""
    return da.broadcast_to(x if isinstance(x, da.Array) else lazy(x), shape)


def set_region(x: Any, index: Index, val: Any) -> Any:
    """``x`` with ``val`` at ``index``, a new array (``x`` unchanged). Dask's item assignment
    takes ints, slices and one integer array; an integer multi-index (a view's fallback
    region) is written as flat positions into the raveled array."""
    if any(isinstance(i, np.ndarray) and i.ndim for i in index):
        arrays = np.broadcast_arrays(*(np.asarray(i) for i in index))
        flat = np.ravel_multi_index(tuple(arrays), x.shape).ravel()
        raveled = x.reshape(-1).copy()  # a new object: the caller's ``x`` stays as it is
        raveled[flat] = broadcast_to(val, arrays[0].shape).reshape(-1)
        return raveled.reshape(x.shape)
    new = x.copy()
    new[index] = val
    return new


def take(x: Any, index: Index) -> Any:
    """Gather with a multi-index of integer arrays, pointwise as NumPy's (``vindex``)."""
    return x.vindex[index]


def same_layout(a: Any, b: Any) -> bool:
    """Whether two arrays have one shape and one dtype (asked by every write into ``out``)."""
    return bool(a.shape == b.shape and a.dtype == b.dtype)


def to_dlpack(x: Any, kwargs: dict[str, Any]) -> Any:
    """The computed values' DLPack capsule (Dask arrays export none of their own)."""
    return to_numpy(x).__dlpack__(**kwargs)


def _never(*arguments: Any, **keywords: Any) -> bool:
    return False


def _nothing(*arguments: Any, **keywords: Any) -> None:
    return None


# What a graph of immutable chunks has not: writable buffers (every write rebinds), native
# views or shared memory (every view is tracked), a native ``out`` (no function carries
# ``support_native_out``), strides (views are tracked over a contiguous geometry), versions
# (identity alone tells whether a base changed).
writable = shares_memory = is_native_view = out_checks_itself = _never
check_native_out = strides = _nothing


def version(x: Any) -> object:
    """Every array's data is immutable: one version."""
    return 0


def write(x: Any, val: Any) -> None:
    """Unreachable: ``writable`` is always false."""
    raise NotImplementedError("a Dask array cannot be written in place; it is rebound")
