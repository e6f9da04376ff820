"""PyTorch searching functions (wide unsigned and bool inputs searched on an int64 key)."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.dtypes import result_type

Arr = Any


def _key(x: Arr) -> Arr:
    return x.to(torch.uint8) if x.dtype == torch.bool else _unsigned.ordered(x)


def _arg(fn: Any, x: Arr, axis: int | None, keepdims: bool) -> Arr:
    ret = fn(_key(x), dim=axis)
    if keepdims:
        shape = [1] * x.ndim if axis is None else list(x.shape)
        if axis is not None:
            shape[axis] = 1
        ret = torch.reshape(ret, shape)
    return ret


def argmax(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return _arg(torch.argmax, x, axis, keepdims)


def argmin(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return _arg(torch.argmin, x, axis, keepdims)


def nonzero(x: Arr, /) -> tuple[Arr, ...]:
    if x.ndim == 0:
        raise ValueError("nonzero of a 0-d array (use nonzero(atleast_1d(x)))")
    return torch.nonzero(x.to(torch.bool), as_tuple=True)


def searchsorted(
    x1: Arr, x2: Arr, /, *, side: str = "left", sorter: Arr | None = None, out: Arr | None = None
) -> Arr:
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    dtype = primitives.native_dtype(result_type(x1, x2))
    x1, x2 = _key(x1.to(dtype)), _key(torch.as_tensor(x2).to(dtype))
    if not x1.is_floating_point():
        return torch.searchsorted(x1, x2, right=side == "right", sorter=sorter)
    if sorter is not None:
        x1 = x1[sorter]
    # NaN is the largest value, as the runtime's ``sort`` puts it (NumPy's answer): the
    # numbers are searched among the numbers, a NaN goes before (left) or after (right) the
    # NaNs; torch put a NaN after everything and a number after the NaNs.
    count = int((~torch.isnan(x1)).sum())
    ret = torch.searchsorted(x1[:count], x2, right=side == "right")
    return torch.where(torch.isnan(x2), count if side == "left" else x1.shape[0], ret)


def count_nonzero(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    truth = x != 0
    if axis == ():  # torch reads an empty ``dim`` as every axis
        return truth.to(torch.int64)
    return torch.sum(truth, dim=axis, keepdim=keepdims, dtype=torch.int64)
