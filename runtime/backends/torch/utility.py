"""PyTorch truth tests on ``x != 0`` (torch returns uint8 for uint8 input; the standard bool)."""

from __future__ import annotations

from typing import Any

import torch

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
    return torch.diff(x, n=n, dim=axis, prepend=prepend, append=append)
