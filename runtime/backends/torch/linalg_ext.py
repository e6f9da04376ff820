"""PyTorch's ``linalg`` extension functions, from ``torch.linalg``. Operands of different
dtypes are cast to the standard's result dtype (torch refuses mixed dtypes); the wrapper
writes ``out``. ``diagonal`` is a native view."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends._common.linalg import require_finite, solve_shapes
from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.backends.torch.linear_algebra import _promoted
from ivycheck.runtime.backends.torch.statistical import sum as _sum

Arr = Any


def cross(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    x1, x2, dtype = _promoted(x1, x2)
    shape = torch.broadcast_shapes(x1.shape, x2.shape)  # type: ignore[no-untyped-call]
    x1, x2 = x1.broadcast_to(shape), x2.broadcast_to(shape)
    return _unsigned.restore(torch.linalg.cross(x1, x2, dim=axis), dtype)


def det(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.linalg.det(x)


def diagonal(x: Arr, /, *, offset: int = 0, out: Arr | None = None) -> Arr:
    return torch.diagonal(x, offset=offset, dim1=-2, dim2=-1)


def eigh(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(torch.linalg.eigh(x))


def eigvalsh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.linalg.eigvalsh(x)


def inv(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.linalg.inv(x)


def matrix_norm(
    x: Arr, /, *, keepdims: bool = False, ord: Any = "fro", out: Arr | None = None
) -> Arr:
    return torch.linalg.matrix_norm(x, ord=ord, keepdim=keepdims)


def matrix_power(x: Arr, n: int, /, *, out: Arr | None = None) -> Arr:
    dtype = x.dtype
    return _unsigned.restore(torch.linalg.matrix_power(_unsigned.signed(x), n), dtype)


def matrix_rank(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    if isinstance(rtol, torch.Tensor):
        rtol = rtol.to(torch.linalg.svdvals(x[..., :0, :0]).dtype)
    return torch.linalg.matrix_rank(x, rtol=rtol).to(torch.int64)


def outer(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2, dtype = _promoted(x1, x2)
    return _unsigned.restore(torch.outer(x1, x2), dtype)


def pinv(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    require_finite("pinv", bool(torch.isfinite(x).all()))
    return torch.linalg.pinv(x, rtol=rtol)


def qr(x: Arr, /, *, mode: Any = "reduced") -> tuple[Arr, ...]:
    return tuple(torch.linalg.qr(x, mode=mode))


def slogdet(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(torch.linalg.slogdet(x))


def solve(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2, _ = _promoted(x1, x2)
    shape1, shape2, _ = solve_shapes(tuple(x1.shape), tuple(x2.shape))
    return torch.linalg.solve(x1.broadcast_to(shape1), x2.broadcast_to(shape2))


def svd(x: Arr, /, *, full_matrices: bool = True) -> tuple[Arr, ...]:
    return tuple(torch.linalg.svd(x, full_matrices=full_matrices))


def svdvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.linalg.svdvals(x)


_NATIVE_TRACE = frozenset({torch.int8, torch.int16, torch.int32, torch.int64})
_NATIVE_TRACE |= {torch.float32, torch.float64}
"""Dtypes whose ``torch.trace`` is the standard's trace: signed integers sum in int64 (the
standard's accumulation dtype for them), floats keep their dtype (``torch.trace``
accumulates in double and rounds once: as close to the exact sum as any order of adding,
which the standard leaves open). Bool, unsigned and narrow floats take the composed path:
``torch.trace`` keeps bool and uint8, and has no uint16-64 kernels."""


def trace(x: Arr, /, *, offset: int = 0, dtype: Any = None, out: Arr | None = None) -> Arr:
    if offset == 0 and x.ndim == 2 and x.dtype in _NATIVE_TRACE and dtype in (None, torch.int64):
        return torch.trace(x)
    diagonal = torch.diagonal(x, offset, -2, -1)
    if dtype is None and x.dtype == primitives.accumulation(x.dtype) and x.dtype != torch.uint64:
        return diagonal.sum(-1)  # float or complex, kept by torch's sum as it is
    return _sum(diagonal, axis=-1, dtype=dtype)


def vector_norm(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2, out: Arr | None = None
) -> Arr:
    """Over no axes (``axis=()``) the norm of each element alone: torch reads ``dim=()`` as
    every axis."""
    if axis == ():
        a = torch.abs(x)
        return (a != 0).to(a.dtype) if ord == 0 else a
    return torch.linalg.vector_norm(x, ord=ord, dim=axis, keepdim=keepdims)


def eig(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(torch.linalg.eig(x))


def eigvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.linalg.eigvals(x)
