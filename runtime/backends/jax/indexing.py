"""JAX indexing functions (out-of-range indices are not an error in JAX: they are filled)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def take(x: Arr, indices: Arr, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    return jnp.take(x, indices, axis=axis)


def take_along_axis(x: Arr, indices: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return jnp.take_along_axis(x, indices, axis=axis)
