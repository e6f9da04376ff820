"""PyTorch reductions, forwarding ``out`` natively where torch has an ``out`` overload."""

from __future__ import annotations

from typing import Any

import torch

import ivycheck.runtime as ivy

Arr = Any


def _float(x: torch.Tensor, dtype: Any) -> tuple[torch.Tensor, Any]:
    """``mean`` of integers is a float mean, as in NumPy (torch refuses it)."""
    if dtype is None and not (x.is_floating_point() or x.is_complex()):
        return x, torch.float64
    return x, dtype


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return torch.sum(x, dim=axis, keepdim=keepdims, dtype=dtype, out=out)


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
    if isinstance(axis, int):
        return torch.prod(x, dim=axis, keepdim=keepdims, dtype=dtype, out=out)
    # torch.prod reduces one dim at a time and has no ``out`` for the full reduction.
    ret = x if dtype is None else x.to(dtype)
    for a in sorted((a % x.ndim for a in (range(x.ndim) if axis is None else axis)), reverse=True):
        ret = torch.prod(ret, dim=a, keepdim=keepdims)
    if out is not None:
        return ivy.inplace_update(out, ret)
    return ret


prod.support_native_out = True  # type: ignore[attr-defined]


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return torch.amax(x, dim=() if axis is None else axis, keepdim=keepdims, out=out)


max.support_native_out = True  # type: ignore[attr-defined]


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return torch.amin(x, dim=() if axis is None else axis, keepdim=keepdims, out=out)


min.support_native_out = True  # type: ignore[attr-defined]
