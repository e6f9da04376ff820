"""JAX elementwise functions. ``jax.numpy`` takes no ``out``: none carries
``support_native_out``; the wrapper writes ``out`` through ``inplace_update``."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

Arr = Any


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.abs(x)


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.negative(x)


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.sin(x)


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.cos(x)


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.tan(x)


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.exp(x)


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.log(x)


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.sqrt(x)


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.floor(x)


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.ceil(x)


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    return jnp.round(x, decimals)


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.add(x1, x2)


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.subtract(x1, x2)


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.multiply(x1, x2)


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.divide(x1, x2)


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.maximum(x1, x2)


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.minimum(x1, x2)


def clip(
    x: Arr, x_min: Arr | None = None, x_max: Arr | None = None, /, *, out: Arr | None = None
) -> Arr:
    return jnp.clip(x, x_min, x_max)


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.where(condition, x1, x2)


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    return jnp.remainder(x1, x2) if modulus else jnp.fmod(x1, x2)
