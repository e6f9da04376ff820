"""NumPy creation functions (none of NumPy's takes ``out``; the wrapper writes it)."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.zeros(shape, dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.ones(shape, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.empty(shape, dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.full(shape, fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    return np.arange(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    return np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return np.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.copy(x)
