"""Dask reductions: Dask's tree reductions, which reduce each chunk with NumPy and combine
the partial results, so an array larger than memory reduces in memory of a few chunks.
Dtypes follow NumPy's (Dask asks NumPy for them); the cumulative functions add the
standard's ``include_initial`` and the NumPy backend's checks."""

# mypy: disable-error-code="no-untyped-call"
# (dask.array has no type hints)

from __future__ import annotations

from typing import Any

import dask.array as da

from ivycheck.runtime.exceptions import InplaceUpdateException

Arr = Any


def sum(
    x: Arr, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False, out: Any = None
) -> Arr:
    return da.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def prod(
    x: Arr, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False, out: Any = None
) -> Arr:
    return da.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def mean(
    x: Arr, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False, out: Any = None
) -> Arr:
    return da.mean(x, axis=axis, dtype=dtype, keepdims=keepdims)


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Any = None) -> Arr:
    return da.max(x, axis=axis, keepdims=keepdims)


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Any = None) -> Arr:
    return da.min(x, axis=axis, keepdims=keepdims)


def std(
    x: Arr, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False, out: Any = None
) -> Arr:
    return da.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def var(
    x: Arr, /, *, axis: Any = None, correction: float = 0.0, keepdims: bool = False, out: Any = None
) -> Arr:
    return da.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def _cumulative(name: str, x: Arr, /, **options: Any) -> Arr:
    """``da.cumsum`` / ``da.cumprod`` along ``axis`` (``dtype`` as theirs), the identity first
    with ``include_initial``; the NumPy backend's checks (``axis`` needed beyond 1-d, ``out``
    of the input's rank)."""
    axis, out = options.get("axis"), options.get("out")
    if axis is None and x.ndim != 1:
        raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
    if out is not None and out.ndim != x.ndim:
        raise InplaceUpdateException(
            f"{name}: cannot write a {x.ndim}-d result into an out array of shape {out.shape}"
        )
    axis = 0 if axis is None else axis
    summing = name == "cumulative_sum"
    ret = (da.cumsum if summing else da.cumprod)(x, axis=axis, dtype=options.get("dtype"))
    if not options.get("include_initial", False):
        return ret
    shape = list(ret.shape)
    shape[axis] = 1
    first = (da.zeros if summing else da.ones)(tuple(shape), dtype=ret.dtype)
    return da.concatenate([first, ret], axis=axis)


def cumulative_sum(x: Arr, /, **options: Any) -> Arr:
    """``axis``, ``dtype``, ``include_initial`` as the standard's."""
    return _cumulative("cumulative_sum", x, **options)


def cumulative_prod(x: Arr, /, **options: Any) -> Arr:
    """``axis``, ``dtype``, ``include_initial`` as the standard's."""
    return _cumulative("cumulative_prod", x, **options)
