"""JAX searching functions (eager: ``nonzero``'s size is data dependent)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivycheck.runtime.backends.jax.utility import truth

Arr = Any


def argmax(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return jnp.argmax(x, axis=axis, keepdims=keepdims)


def argmin(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return jnp.argmin(x, axis=axis, keepdims=keepdims)


def nonzero(x: Arr, /) -> tuple[Arr, ...]:
    return jnp.nonzero(truth(x))


def searchsorted(
    x1: Arr, x2: Arr, /, *, side: str = "left", sorter: Arr | None = None, out: Arr | None = None
) -> Arr:
    # JAX indexes in int32; the standard's index dtype is the default integer.
    return jnp.searchsorted(x1, x2, side=side, sorter=sorter).astype(jnp.int64)


def count_nonzero(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return jnp.sum(truth(x) != 0, axis=axis, keepdims=keepdims, dtype=jnp.int64)
