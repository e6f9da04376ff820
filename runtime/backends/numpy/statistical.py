"""NumPy reductions: all forward ``out`` natively; ``np.asarray`` turns scalars into 0-d."""

from __future__ import annotations

from typing import Any

import numpy as np

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


def cumulative_sum(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return np.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial, out=out)


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
    return np.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial, out=out)


cumulative_prod.support_native_out = True  # type: ignore[attr-defined]
