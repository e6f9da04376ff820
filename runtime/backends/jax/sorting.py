"""JAX sorting (stable, descending included)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def argsort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    return jnp.argsort(x, axis=axis, stable=True, descending=descending)


def sort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    return jnp.sort(x, axis=axis, stable=True, descending=descending)
