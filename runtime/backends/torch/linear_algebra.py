"""PyTorch linear algebra."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.axes import contracted_shape
from ivycheck.runtime.backends._common.out import written
from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.dtypes import result_type

Arr = Any


def _promoted(x1: Arr, x2: Arr) -> tuple[Arr, Arr, Any]:
    """Both operands in the standard's result dtype (torch refuses mixed dtypes), as int64
    for a wide unsigned result; and that result dtype. Two tensors of one dtype (the common
    case) skip the promotion lookup and the casts: that dtype is the result."""
    if type(x1) is torch.Tensor and type(x2) is torch.Tensor and x1.dtype == x2.dtype:
        dtype = x1.dtype
        if dtype in _unsigned.WIDE_UNSIGNED:
            return _unsigned.signed(x1), _unsigned.signed(x2), dtype
        return x1, x2, dtype
    dtype = primitives.native_dtype(result_type(x1, x2))
    return _unsigned.signed(x1.to(dtype)), _unsigned.signed(x2.to(dtype)), dtype


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2, dtype = _promoted(x1, x2)
    if x1.dtype != dtype:
        ret = _unsigned.restore(torch.matmul(x1, x2), dtype)
        return written(primitives, ret, out)
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
        return written(primitives, ret, out)
    return ret


cholesky.support_native_out = True  # type: ignore[attr-defined]


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    x1, x2, dtype = _promoted(x1, x2)
    if not isinstance(axes, int):
        axes = (list(axes[0]), list(axes[1]))
    return _unsigned.restore(torch.tensordot(x1, x2, dims=axes), dtype)


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    """Broadcast, then the conjugated product summed over ``axis`` (torch.linalg.vecdot has
    no integer kernels)."""
    x1, x2, dtype = _promoted(x1, x2)
    shape, axis = contracted_shape(tuple(x1.shape), tuple(x2.shape), axis)
    x1, x2 = torch.broadcast_to(x1, shape), torch.broadcast_to(x2, shape)
    products = torch.conj(x1) * x2 if x1.is_complex() else x1 * x2
    ret = torch.sum(products, dim=axis, dtype=products.dtype)
    return _unsigned.restore(ret, dtype)
