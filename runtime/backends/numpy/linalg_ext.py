"""NumPy's ``linalg`` extension functions: ``numpy.linalg`` has each of them (NumPy 2); none
takes ``out``, so the wrapper writes ``out``. Mixed operand dtypes are cast to the standard's
result dtype first, as for ``matmul``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.linalg import require_finite, solve_shapes
from ivycheck.runtime.backends.numpy.linear_algebra import _promoted

Arr = Any


def cross(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return np.linalg.cross(*_promoted(x1, x2), axis=axis)


def det(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.asarray(np.linalg.det(x))


def diagonal(x: Arr, /, *, offset: int = 0, out: Arr | None = None) -> Arr:
    """A writable view (``np.linalg.diagonal`` is read-only): the square block the diagonal
    runs through, read along its diagonal by ``einsum``, which returns a view."""
    rows, cols = x.shape[-2], x.shape[-1]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    r0, c0 = max(-offset, 0), max(offset, 0)
    return np.einsum("...ii->...i", x[..., r0 : r0 + n, c0 : c0 + n])


def eigh(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(np.linalg.eigh(x))


def eigvalsh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.linalg.eigvalsh(x)


def inv(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.linalg.inv(x)


def matrix_norm(
    x: Arr, /, *, keepdims: bool = False, ord: Any = "fro", out: Arr | None = None
) -> Arr:
    return np.asarray(np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord))


def matrix_power(x: Arr, n: int, /, *, out: Arr | None = None) -> Arr:
    return np.linalg.matrix_power(x, n)


def matrix_rank(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    return np.asarray(np.linalg.matrix_rank(x, rtol=rtol), dtype=np.int64)


def outer(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.linalg.outer(*_promoted(x1, x2))


def pinv(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    require_finite("pinv", bool(np.isfinite(x).all()))
    return np.linalg.pinv(x, rtol=rtol)


def qr(x: Arr, /, *, mode: Any = "reduced") -> tuple[Arr, ...]:
    return tuple(np.linalg.qr(x, mode=mode))


def slogdet(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(np.asarray(r) for r in np.linalg.slogdet(x))


def solve(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _promoted(x1, x2)
    shape1, shape2, _ = solve_shapes(x1.shape, x2.shape)
    return np.linalg.solve(np.broadcast_to(x1, shape1), np.broadcast_to(x2, shape2))


def svd(x: Arr, /, *, full_matrices: bool = True) -> tuple[Arr, ...]:
    return tuple(np.linalg.svd(x, full_matrices=full_matrices))


def svdvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.linalg.svdvals(x)


def trace(x: Arr, /, *, offset: int = 0, dtype: Any = None, out: Arr | None = None) -> Arr:
    """``np.trace`` accumulates as ``np.sum`` does (integers in the default integer,
    unsigned ones in uint64), which is the standard's ``trace``."""
    return np.asarray(np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype))


def vector_norm(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2, out: Arr | None = None
) -> Arr:
    return np.asarray(np.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord))


def _complex(x: Arr, *results: Arr) -> tuple[Arr, ...]:
    """``results`` complex of ``x``'s precision (NumPy gives real eigenvalues when all are)."""
    dtype = np.result_type(x.dtype, np.complex64)
    return tuple(r.astype(dtype, copy=False) for r in results)


def eig(x: Arr, /) -> tuple[Arr, ...]:
    return _complex(x, *np.linalg.eig(x))


def eigvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _complex(x, np.linalg.eigvals(x))[0]
