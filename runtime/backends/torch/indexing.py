"""PyTorch indexing functions (integer-array indexing: every dtype, negative indices too)."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends.torch import _unsigned

Arr = Any


def take(x: Arr, indices: Arr, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    if axis is None:
        x, axis = torch.reshape(x, (-1,)), 0
    index = (slice(None),) * (axis % x.ndim) + (torch.as_tensor(indices, dtype=torch.int64),)
    return x[index]


def take_along_axis(x: Arr, indices: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    indices = torch.as_tensor(indices, dtype=torch.int64)
    indices = torch.where(indices < 0, indices + x.shape[axis], indices)
    # (no gather kernel for uint16-64: their bits as int64)
    return _unsigned.restore(torch.take_along_dim(_unsigned.signed(x), indices, dim=axis), x.dtype)
