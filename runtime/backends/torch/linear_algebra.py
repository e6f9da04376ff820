"""PyTorch linear algebra."""

from __future__ import annotations

from typing import Any

import torch

import ivycheck.runtime as ivy

Arr = Any


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.matmul(x1, x2, out=out)


matmul.support_native_out = True  # type: ignore[attr-defined]


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    """The upper factor is the transposed lower factor of the transposed input, computed
    into a temporary, so that path writes ``out`` with ``inplace_update`` (the documented
    cholesky shape)."""
    if not upper:
        return torch.linalg.cholesky(x, out=out)
    ret = torch.transpose(torch.linalg.cholesky(torch.transpose(x, -1, -2)), -1, -2)
    if out is not None:
        return ivy.inplace_update(out, ret)
    return ret


cholesky.support_native_out = True  # type: ignore[attr-defined]
