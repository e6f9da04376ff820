"""JAX's ``linalg`` extension functions, from ``jax.numpy.linalg`` (which follows the
standard's signatures). Arrays are immutable: ``diagonal`` is a copy here, made a tracked view
of ``x`` by the wrapper; ``out`` is written by the wrapper."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivycheck.runtime.backends._common.linalg import require_finite, solve_shapes
from ivycheck.runtime.backends.jax import primitives
from ivycheck.runtime.dtypes import result_type

Arr = Any


def _promoted(x1: Arr, x2: Arr) -> tuple[Arr, ...]:
    dtype = jnp.dtype(str(result_type(x1, x2)))
    return x1.astype(dtype), x2.astype(dtype)


def cross(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return jnp.linalg.cross(*_promoted(x1, x2), axis=axis)


def det(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.det(x)


def diagonal(x: Arr, /, *, offset: int = 0, out: Arr | None = None) -> Arr:
    return jnp.linalg.diagonal(x, offset=offset)


def eigh(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(jnp.linalg.eigh(x))


def eigvalsh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.eigvalsh(x)


def inv(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.inv(x)


def matrix_norm(
    x: Arr, /, *, keepdims: bool = False, ord: Any = "fro", out: Arr | None = None
) -> Arr:
    return jnp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)


def matrix_power(x: Arr, n: int, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.matrix_power(x, n)


def matrix_rank(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    return jnp.linalg.matrix_rank(x, rtol=rtol).astype(jnp.int64)


def outer(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.outer(*_promoted(x1, x2))


def pinv(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    require_finite("pinv", bool(jnp.isfinite(x).all()))
    return jnp.linalg.pinv(x, rtol=rtol)


def qr(x: Arr, /, *, mode: Any = "reduced") -> tuple[Arr, ...]:
    return tuple(jnp.linalg.qr(x, mode=mode))


def slogdet(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(jnp.linalg.slogdet(x))


def solve(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _promoted(x1, x2)
    shape1, shape2, _ = solve_shapes(x1.shape, x2.shape)
    return jnp.linalg.solve(jnp.broadcast_to(x1, shape1), jnp.broadcast_to(x2, shape2))


def svd(x: Arr, /, *, full_matrices: bool = True) -> tuple[Arr, ...]:
    return tuple(jnp.linalg.svd(x, full_matrices=full_matrices))


def svdvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.svdvals(x)


def trace(x: Arr, /, *, offset: int = 0, dtype: Any = None, out: Arr | None = None) -> Arr:
    """One ``jnp.trace`` in the standard's dtype, given explicitly for integers
    (``jnp.trace`` by itself keeps bool and widens unsigned integers to the signed default).
    Float sums may differ from NumPy's in the last place (the compiled reduction adds in
    another order), which the standard leaves open."""
    acc = primitives.accumulation(x.dtype) if dtype is None else jnp.dtype(dtype)
    if acc.kind in "biu":
        return jnp.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=acc)
    return jnp.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vector_norm(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2, out: Arr | None = None
) -> Arr:
    return jnp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)


def eig(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(jnp.linalg.eig(x))


def eigvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.linalg.eigvals(x)
