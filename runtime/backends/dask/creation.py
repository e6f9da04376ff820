"""Dask creation functions of Python values: lazy, chunked as ``primitives.CHUNKS`` says.

(Functions of an array -- ``zeros_like``, ``tril`` ... -- are the NumPy backend's, which
NumPy hands to Dask: ``numpy_functions``.)
"""

# mypy: disable-error-code="no-untyped-call"
# (dask.array has no type hints)

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
from dask.array.core import normalize_chunks

from ivycheck.runtime.backends._common.sizes import check_range, check_size
from ivycheck.runtime.backends.dask.primitives import CHUNKS, default_native, lazy
from ivycheck.runtime.exceptions import IvyBufferError

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("zeros", shape, dtype)  # a graph of more chunks than memory holds, else
    return da.zeros(shape, dtype=dtype, chunks=CHUNKS)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("ones", shape, dtype)
    return da.ones(shape, dtype=dtype, chunks=CHUNKS)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("empty", shape, dtype)
    return da.empty(shape, dtype=dtype, chunks=CHUNKS)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    dtype = dtype or default_native(fill_value)
    check_size("full", shape, dtype)
    return da.full(shape, fill_value, dtype=dtype, chunks=CHUNKS)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    low, high = (0, start) if stop is None else (start, stop)
    dtype = dtype or default_native(low, high, step)
    check_range("arange", low, high, step, dtype)
    return da.arange(low, high, step, dtype=dtype, chunks=CHUNKS)


def _linspace_block(
    start: Any, stop: Any, num: int, endpoint: bool, dtype: Any, block_info: Any = None
) -> np.ndarray:
    """Positions ``first:end`` of ``np.linspace(start, stop, num)``, by NumPy's own arithmetic
    (``arange * step + start``, the last one ``stop`` exactly), element by element."""
    ((first, end),) = block_info[None]["array-location"]
    exact = np.result_type(start, stop, 1.0)  # NumPy computes in an inexact dtype
    y = np.arange(first, end, dtype=exact)
    div = num - 1 if endpoint else num
    delta = np.subtract(stop, start, dtype=exact.type)
    if div > 0:
        step = delta / div
        y = y / div * delta if step == 0 else y * step  # (NumPy's care for denormal steps)
    else:
        y = y * delta
    y += start
    if endpoint and num > 1 and end == num:
        y[-1] = stop
    if np.issubdtype(dtype, np.integer):
        np.floor(y, out=y)
    values: np.ndarray = y.astype(dtype, copy=False)
    return values


def linspace(start: Any, stop: Any, /, num: int, **options: Any) -> Arr:
    """Block by block, each NumPy's values (``da.linspace`` misses ``stop`` by an ulp);
    ``endpoint``, ``dtype``."""
    dtype = np.dtype(options.get("dtype") or np.result_type(start, stop, 1.0))
    check_size("linspace", num, dtype)
    chunks = normalize_chunks(CHUNKS, (num,), dtype=dtype)
    endpoint = options.get("endpoint", True)
    return da.map_blocks(
        _linspace_block, start, stop, num, endpoint, dtype, chunks=chunks, dtype=dtype,
        meta=np.empty((0,), dtype),
    )  # fmt: skip


def _eye_block(k: int, dtype: Any, block_info: Any = None) -> np.ndarray:
    """One block of ``eye``: the identity's diagonal shifted by the block's offset."""
    (row, row_end), (col, col_end) = block_info[None]["array-location"]
    return np.eye(row_end - row, col_end - col, k + row - col, dtype=dtype)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, **options: Any) -> Arr:
    """Block by block (``da.eye`` loses blocks of a non-square identity); ``dtype``."""
    shape = (n_rows, n_rows if n_cols is None else n_cols)
    dtype = np.dtype(options.get("dtype"))
    check_size("eye", shape, dtype)
    chunks = normalize_chunks(CHUNKS, shape, dtype=dtype)
    return da.map_blocks(
        _eye_block, k, dtype, chunks=chunks, dtype=dtype, meta=np.empty((0, 0), dtype)
    )


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return x.copy()


def from_dlpack(x: Any, /, *, copy: bool | None = None, out: Arr | None = None) -> Arr:
    """The producer's values, read by NumPy (any strides) and copied into the graph, as
    ``da.from_array`` always copies: ``copy=False`` raises the standard's ``BufferError``
    -- but for a Dask array, which is taken as it is, and an empty one (nothing to copy)."""
    if isinstance(x, da.Array):
        return x.copy() if copy else x
    values = np.from_dlpack(x)  # a view: nothing is copied yet
    if copy is False and values.size:
        raise IvyBufferError(
            "from_dlpack: copy=False, but a Dask array holds a copy of the values it is made "
            "from: a copy is needed"
        )
    return lazy(values)
