"""JAX reductions."""

from __future__ import annotations

import functools
from typing import Any

import jax
import jax.numpy as jnp

from ivycheck.runtime.backends.jax import primitives

Arr = Any


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return jnp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def mean(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    """The mean of integers (and bools) is float64, as on NumPy, PyTorch and TensorFlow
    (``jnp.mean`` of int32 gave float32)."""
    if dtype is None and not jnp.issubdtype(x.dtype, jnp.inexact):
        dtype = jnp.float64
    return jnp.mean(x, axis=axis, dtype=dtype, keepdims=keepdims)


def prod(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return jnp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    if jnp.issubdtype(x.dtype, jnp.floating):
        return _nan_wins(x, _static(axis), keepdims, True)
    return jnp.max(x, axis=axis, keepdims=keepdims)


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    if jnp.issubdtype(x.dtype, jnp.floating):
        return _nan_wins(x, _static(axis), keepdims, False)
    return jnp.min(x, axis=axis, keepdims=keepdims)


def _static(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, list) else axis


@functools.partial(jax.jit, static_argnames=("axis", "keepdims", "largest"))
def _nan_wins(x: Arr, axis: Any, keepdims: bool, largest: bool) -> Arr:
    """``max``/``min`` of floats, NaN wherever the reduced values hold a NaN, as the standard
    and every other backend answer. XLA's CPU reduction loses NaNs of arrays of a few thousand
    elements: ``min`` of 5000 sorted float64 values ending in a NaN gave ``inf``, of 10001 the
    least number (jax 0.10; array-api-extra's ``searchsorted`` tests found it). One compiled
    function, so the check costs no dispatch of its own."""
    ret = (
        jnp.max(x, axis=axis, keepdims=keepdims) if largest else jnp.min(x, axis, keepdims=keepdims)
    )
    return jnp.where(jnp.isnan(x).any(axis=axis, keepdims=keepdims), jnp.nan, ret).astype(ret.dtype)


def std(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return jnp.std(x, axis=axis, correction=correction, keepdims=keepdims)


def var(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return jnp.var(x, axis=axis, correction=correction, keepdims=keepdims)


def cumulative_sum(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return jnp.cumulative_sum(x, axis=axis, dtype=dtype, include_initial=include_initial)


def cumulative_prod(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    if dtype is None:  # (jnp.cumulative_prod keeps small integers; the standard widens them)
        dtype = primitives.accumulation(x.dtype)
    return jnp.cumulative_prod(x, axis=axis, dtype=dtype, include_initial=include_initial)
