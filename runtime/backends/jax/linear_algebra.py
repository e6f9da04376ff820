"""JAX linear algebra."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.matmul(x1, x2)


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    return jnp.linalg.cholesky(x, upper=upper)


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    return jnp.tensordot(x1, x2, axes=axes)


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return jnp.vecdot(x1, x2, axis=axis)
