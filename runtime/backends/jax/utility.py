"""JAX truth tests."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return jnp.all(x, axis=axis, keepdims=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return jnp.any(x, axis=axis, keepdims=keepdims)
