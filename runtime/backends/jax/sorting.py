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
    """Descending: the elements in :func:`argsort`'s stable order, so equal elements (``0.0``
    and ``-0.0``) keep their order, as on PyTorch and TensorFlow."""
    if descending:
        return jnp.take_along_axis(x, argsort(x, axis=axis, descending=True), axis=axis)
    return jnp.sort(x, axis=axis, stable=True)
