"""PyTorch truth tests on ``x != 0`` (torch returns uint8 for uint8 input; the standard bool)."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends.torch import _unsigned

Arr = Any


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x = x.to(torch.bool)
    if axis == ():
        return x
    return torch.all(x, dim=axis, keepdim=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x = x.to(torch.bool)
    if axis == ():
        return x
    return torch.any(x, dim=axis, keepdim=keepdims)


def diff(
    x: Arr,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Arr | None = None,
    append: Arr | None = None,
    out: Arr | None = None,
) -> Arr:
    dtype = x.dtype  # (no kernel for uint16-64: through int64, wrapped back to their width)
    x, prepend, append = (None if p is None else _unsigned.signed(p) for p in (x, prepend, append))
    ret = torch.diff(x, n=n, dim=axis, prepend=prepend, append=append)
    if dtype in (torch.uint16, torch.uint32):
        ret = ret & ((1 << (8 * dtype.itemsize)) - 1)
    return _unsigned.restore(ret, dtype)
