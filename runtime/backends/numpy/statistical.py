"""NumPy reductions: all forward ``out`` natively; ``np.asarray`` turns scalars into 0-d."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.exceptions import InplaceUpdateException

Arr = Any


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.asarray(np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out))


sum.support_native_out = True  # type: ignore[attr-defined]


def mean(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.asarray(np.mean(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out))


mean.support_native_out = True  # type: ignore[attr-defined]


def prod(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.asarray(np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out))


prod.support_native_out = True  # type: ignore[attr-defined]


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return np.asarray(np.max(x, axis=axis, keepdims=keepdims, out=out))


max.support_native_out = True  # type: ignore[attr-defined]


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return np.asarray(np.min(x, axis=axis, keepdims=keepdims, out=out))


min.support_native_out = True  # type: ignore[attr-defined]


def std(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.asarray(np.std(x, axis=axis, ddof=correction, keepdims=keepdims, out=out))


std.support_native_out = True  # type: ignore[attr-defined]


def var(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.asarray(np.var(x, axis=axis, ddof=correction, keepdims=keepdims, out=out))


var.support_native_out = True  # type: ignore[attr-defined]


def _cumulative(
    name: str, fn: Any, x: Arr, axis: int | None, dtype: Any, include_initial: bool, out: Any
) -> Arr:
    """``np.cumulative_sum`` / ``np.cumulative_prod`` with the checks NumPy lacks: an array
    that is not 1-d needs ``axis`` (NumPy made a 0-d array 1-d; the other backends raise),
    and an ``out`` of another rank is refused before NumPy sees it (NumPy 2.4 dereferences
    a 0-d ``out`` and crashes the process)."""
    if axis is None and x.ndim != 1:
        raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
    if out is not None and out.ndim != x.ndim:
        raise InplaceUpdateException(
            f"{name}: cannot write a {x.ndim}-d result into an out array of shape {out.shape}"
        )
    return fn(x, axis=axis, dtype=dtype, include_initial=include_initial, out=out)


def cumulative_sum(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative("cumulative_sum", np.cumulative_sum, x, axis, dtype, include_initial, out)


cumulative_sum.support_native_out = True  # type: ignore[attr-defined]


def cumulative_prod(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative("cumulative_prod", np.cumulative_prod, x, axis, dtype, include_initial, out)


cumulative_prod.support_native_out = True  # type: ignore[attr-defined]
