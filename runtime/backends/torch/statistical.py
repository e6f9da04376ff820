"""PyTorch reductions, forwarding ``out`` natively where torch has an ``out`` overload.

Torch reads ``dim=()`` as "every axis"; the standard (and NumPy) as "no axis": each function
treats ``axis=()`` itself. Integer sums accumulate in the standard's dtype (torch sums uint8
into int64, the standard into uint64), wide unsigned ones computed in int64 (``_unsigned``).
"""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends._common.out import written
from ivycheck.runtime.backends.torch import _unsigned, primitives

Arr = Any


def _float(x: torch.Tensor, dtype: Any) -> tuple[torch.Tensor, Any]:
    """``mean`` of integers is a float mean, as in NumPy (torch refuses it)."""
    if dtype is None and not (x.is_floating_point() or x.is_complex()):
        return x, torch.float64
    return x, dtype


def _accumulate(x: torch.Tensor, dtype: Any) -> tuple[torch.Tensor, Any]:
    """``x`` in the dtype to compute in, and the result dtype (the standard's by default);
    ``x`` itself when it already has that dtype (``.to`` costs a call even then)."""
    if dtype is None:
        dtype = primitives.accumulation(x.dtype)
    if x.dtype != dtype:
        x = x.to(dtype)
    return _unsigned.signed(x), dtype


def _written(ret: Arr, out: Arr | None) -> Arr:
    if out is not None:
        return written(primitives, ret, out)
    return ret


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    # The common full sum of int64, float or complex: torch.sum keeps those dtypes (it
    # widens the others), and without keywords it has none to parse.
    if (
        out is None
        and dtype is None
        and axis is None
        and not keepdims
        and x.dtype == primitives.accumulation(x.dtype)
        and x.dtype != torch.uint64
    ):
        return torch.sum(x)
    x, result = _accumulate(x, dtype)
    if x.dtype == result and axis != ():
        return torch.sum(x, dim=axis, keepdim=keepdims, dtype=x.dtype, out=out)
    ret = x if axis == () else torch.sum(x, dim=axis, keepdim=keepdims, dtype=x.dtype)
    return _written(_unsigned.restore(ret.clone(), result), out)


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
    x, dtype = _float(x, dtype)
    if axis == ():  # the mean over no axis is each element
        return _written(x.to(dtype or x.dtype, copy=True), out)
    return torch.mean(x, dim=axis, keepdim=keepdims, dtype=dtype, out=out)


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
    x, result = _accumulate(x, dtype)
    if isinstance(axis, int) and x.dtype == result:
        return torch.prod(x, dim=axis, keepdim=keepdims, dtype=x.dtype, out=out)
    # torch.prod reduces one dim at a time and has no ``out`` for the full reduction.
    ret = x.clone()
    axes = [axis] if isinstance(axis, int) else range(x.ndim) if axis is None else axis
    for a in sorted((a % x.ndim for a in axes), reverse=True):
        ret = torch.prod(ret, dim=a, keepdim=keepdims, dtype=x.dtype)
    return _written(_unsigned.restore(ret, result), out)


prod.support_native_out = True  # type: ignore[attr-defined]


def _extremum(fn: Any, whole: Any, x: Arr, axis: Any, keepdims: bool, out: Arr | None) -> Arr:
    """``amax``/``amin`` on the order-preserving int64 key of a wide unsigned ``x``; the
    common full reduction by ``whole`` (``torch.max``/``torch.min``: the same values, NaN
    propagated alike, without ``amax``'s keyword parsing)."""
    if axis is None and out is None and not keepdims and x.dtype not in _unsigned.WIDE_UNSIGNED:
        return whole(x)
    if axis == ():
        return _written(x.clone(), out)
    if x.dtype not in _unsigned.WIDE_UNSIGNED:
        return fn(x, dim=() if axis is None else axis, keepdim=keepdims, out=out)
    ret = fn(_unsigned.ordered(x), dim=() if axis is None else axis, keepdim=keepdims)
    return _written(_unsigned.restore(ret, x.dtype, from_ordered=True), out)


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return _extremum(torch.amax, torch.max, x, axis, keepdims, out=out)


max.support_native_out = True  # type: ignore[attr-defined]


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return _extremum(torch.amin, torch.min, x, axis, keepdims, out=out)


min.support_native_out = True  # type: ignore[attr-defined]


def _moments(fn: Any, x: Arr, axis: Any, correction: float, keepdims: bool, out: Arr | None) -> Arr:
    if axis == ():  # one element per group: a sum of squares of 0, over 1 - correction
        return _written(torch.zeros_like(x) / (1 - correction), out)
    return fn(x, dim=axis, correction=correction, keepdim=keepdims, out=out)


def std(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _moments(torch.std, x, axis, correction, keepdims, out=out)


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
    return _moments(torch.var, x, axis, correction, keepdims, out=out)


var.support_native_out = True  # type: ignore[attr-defined]


def _cumulative(
    name: str, fn: Any, fill: Any, x: Arr, axis: int | None, dtype: Any, include_initial: bool
) -> Arr:
    """``cumulative_sum`` / ``cumulative_prod``: ``fn`` (``torch.cumsum`` / ``torch.cumprod``)
    in the accumulation dtype, ``fill`` (zeros / ones) prepended for ``include_initial``."""
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name}: axis is required for a {x.ndim}-d array")
        axis = 0
    x, result = _accumulate(x, dtype)
    ret = fn(x, dim=axis, dtype=x.dtype)  # torch accumulates small integers into int64
    if include_initial:
        shape = list(ret.shape)
        shape[axis] = 1
        ret = torch.cat([fill(shape, dtype=ret.dtype), ret], dim=axis)
    return _unsigned.restore(ret, result)


def cumulative_sum(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative("cumulative_sum", torch.cumsum, torch.zeros, x, axis, dtype, include_initial)


def cumulative_prod(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative(
        "cumulative_prod", torch.cumprod, torch.ones, x, axis, dtype, include_initial
    )
