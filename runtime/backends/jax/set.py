"""JAX set functions (``jnp.unique_*``: NaNs distinct, inverse of ``x``'s shape)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def unique_all(x: Arr, /) -> tuple[Arr, Arr, Arr, Arr]:
    return tuple(jnp.unique_all(x))  # type: ignore[return-value]


def unique_counts(x: Arr, /) -> tuple[Arr, Arr]:
    return tuple(jnp.unique_counts(x))  # type: ignore[return-value]


def unique_inverse(x: Arr, /) -> tuple[Arr, Arr]:
    return tuple(jnp.unique_inverse(x))  # type: ignore[return-value]


def unique_values(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.unique_values(x)


def isin(x1: Arr, x2: Arr, /, *, invert: bool = False, out: Arr | None = None) -> Arr:
    return jnp.isin(x1, x2, invert=invert)
