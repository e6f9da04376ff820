"""NumPy creation functions (none of NumPy's takes ``out``; the wrapper writes it)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ivycheck.runtime.backends._common.sizes import check_range, check_size
from ivycheck.runtime.backends.numpy.primitives import default_native, native_dtype
from ivycheck.runtime.dtypes import DEFAULT_INT
from ivycheck.runtime.info import as_sequence

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("zeros", shape, dtype)  # NumPy's own error is another class
    return np.zeros(shape, dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("ones", shape, dtype)  # NumPy's own error is another class
    return np.ones(shape, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("empty", shape, dtype)  # NumPy's own error is another class
    return np.empty(shape, dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    dtype = dtype or default_native(fill_value)
    check_size("full", shape, dtype)
    return np.full(shape, fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    if dtype is None:  # integers only (the common call) make the default int: no lookup
        ints = type(start) is type(stop) is type(step) is int
        dtype = _DEFAULT_INT if ints else default_native(start, stop, step)
    check_range("arange", start, stop, step, dtype)  # NumPy gave an empty array
    return np.arange(start, stop, step, dtype=dtype)


_DEFAULT_INT = native_dtype(DEFAULT_INT)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("linspace", num, dtype)
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.copy(x)


def empty_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.empty_like(x, dtype=dtype)


def full_like(x: Arr, /, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.full_like(x, fill_value, dtype=dtype)


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("eye", (n_rows, n_rows if n_cols is None else n_cols), dtype)
    return np.eye(n_rows, n_cols, k=k, dtype=dtype)


def from_dlpack(x: Any, /, *, copy: bool | None = None, out: Arr | None = None) -> Arr:
    return np.from_dlpack(x, copy=copy)


def meshgrid(*arrays: Arr, indexing: Literal["xy", "ij"] = "xy") -> Any:
    return as_sequence(np.meshgrid(*arrays, indexing=indexing))


def tril(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return np.tril(x, k)


def triu(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return np.triu(x, k)
