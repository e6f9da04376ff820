"""JAX view functions: JAX returns new arrays; the ``handle_view`` wrapper tracks them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.backends._common.promote import promote
from ivycheck.runtime.backends._common.sizes import check_size
from ivycheck.runtime.backends.jax import primitives

Arr = Any


def reshape(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    return jnp.reshape(x, tuple(shape))


def permute_dims(x: Arr, /, axes: Sequence[int], *, out: Arr | None = None) -> Arr:
    return jnp.transpose(x, tuple(axes))


def swapaxes(x: Arr, axis0: int, axis1: int, /, *, out: Arr | None = None) -> Arr:
    return jnp.swapaxes(x, axis0, axis1)


def moveaxis(x: Arr, source: Any, destination: Any, /, *, out: Arr | None = None) -> Arr:
    return jnp.moveaxis(x, source, destination)


def expand_dims(x: Arr, /, axis: Any = 0, *, out: Arr | None = None) -> Arr:
    n = 1 if isinstance(axis, int) else len(axis)
    return jnp.expand_dims(x, normalize_axes(axis, x.ndim + n))


def squeeze(x: Arr, /, axis: Any = None, *, out: Arr | None = None) -> Arr:
    return jnp.squeeze(x, axis=axis)


def flip(x: Arr, /, *, axis: Any = None, out: Arr | None = None) -> Arr:
    return jnp.flip(x, axis=axis)


def rot90(m: Arr, /, *, k: int = 1, axes: tuple[int, int] = (0, 1), out: Arr | None = None) -> Arr:
    return jnp.rot90(m, k, (axes[0], axes[1]))


def flipud(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.flipud(m)


def fliplr(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.fliplr(m)


def matrix_transpose(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.swapaxes(x, -1, -2)


def get_item(x: Arr, /, query: Any, *, out: Arr | None = None) -> Arr:
    # JAX rejects lists as indices (NumPy treats them as integer arrays).
    if isinstance(query, list):
        query = np.asarray(query)
    elif isinstance(query, tuple):
        query = tuple(np.asarray(q) if isinstance(q, list) else q for q in query)
    return x[query]


def broadcast_to(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    check_size("broadcast_to", shape, x.dtype)  # XLA aborts the process on an overflowing size
    return jnp.broadcast_to(x, tuple(shape))


def concat(arrays: Sequence[Arr], /, *, axis: int | None = 0, out: Arr | None = None) -> Arr:
    return jnp.concatenate(promote(primitives, *arrays), axis=axis)


def stack(arrays: Sequence[Arr], /, *, axis: int = 0, out: Arr | None = None) -> Arr:
    return jnp.stack(promote(primitives, *arrays), axis=axis)


def repeat(x: Arr, repeats: Any, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    return jnp.repeat(x, repeats, axis=axis)


def roll(x: Arr, /, shift: Any, *, axis: Any = None, out: Arr | None = None) -> Arr:
    return jnp.roll(x, shift, axis=axis)


def tile(x: Arr, repetitions: Sequence[int], /, *, out: Arr | None = None) -> Arr:
    return jnp.tile(x, tuple(repetitions))
