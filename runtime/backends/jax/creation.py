"""JAX creation functions."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.zeros(shape, dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.ones(shape, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.empty(shape, dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.full(shape, fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    return jnp.arange(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    return jnp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.array(x, copy=True)
