"""Dask index and truth-testing reductions: lazy tree reductions; index results int64 as NumPy's."""

# mypy: disable-error-code="no-untyped-call"
# (dask.array has no type hints)

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

Arr = Any


def _keep(ret: Arr, x: Arr, axis: Any, keepdims: bool) -> Arr:
    """``ret`` reduced over ``axis`` (``None``: every axis) with the reduced axes back as
    length 1 when ``keepdims`` (Dask's argmax and count_nonzero drop them)."""
    if not keepdims:
        return ret
    axes = range(x.ndim) if axis is None else (axis,) if isinstance(axis, int) else axis
    return da.reshape(
        ret, tuple(1 if a in {i % x.ndim for i in axes} else n for a, n in enumerate(x.shape))
    )


def argmax(x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Any = None) -> Arr:
    return _keep(da.argmax(x, axis=axis).astype(np.int64), x, axis, keepdims)


def argmin(x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Any = None) -> Arr:
    return _keep(da.argmin(x, axis=axis).astype(np.int64), x, axis, keepdims)


def count_nonzero(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Any = None) -> Arr:
    return _keep(da.count_nonzero(x, axis=axis).astype(np.int64), x, axis, keepdims)


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return da.all(x, axis=axis, keepdims=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return da.any(x, axis=axis, keepdims=keepdims)
