"""TensorFlow reductions (``dtype`` is applied by casting the input first; integer sums and
products accumulate in the standard's dtype: TensorFlow keeps uint8, the standard uint64)."""

from __future__ import annotations

import math
from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.backends.tensorflow._promotion import axes

Arr = Any


def _prepare(x: Any, axis: Any, dtype: Any) -> tuple[Any, Any]:
    if dtype is not None:
        x = tf.cast(x, dtype)
    return x, axis if axis is None or isinstance(axis, int) else list(axis)


def _accumulated(x: Any, dtype: Any) -> Any:
    return tf.cast(x, dtype or primitives.accumulation(x.dtype))


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    x, axis = _prepare(_accumulated(x, dtype), axis, None)
    return tf.reduce_sum(x, axis=axis, keepdims=keepdims)


def mean(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    x, axis = _prepare(x, axis, dtype)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x = tf.cast(x, tf.float64)  # the mean of integers is a float, as in NumPy
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def prod(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    x, axis = _prepare(_accumulated(x, dtype), axis, None)
    return tf.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _prepare(x, axis, None)
    return tf.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _prepare(x, axis, None)
    return tf.reduce_min(x, axis=axis, keepdims=keepdims)


def var(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    """The sum of squared deviations over ``N - correction`` (``tf.math.reduce_variance``
    has no correction)."""
    reduced = list(range(x.shape.rank)) if axis is None else axes(axis, x.shape.rank)
    n = math.prod(primitives.shape(x)[a] for a in reduced)
    deviations = x - tf.reduce_mean(x, axis=reduced, keepdims=True)
    squares = tf.reduce_sum(tf.square(deviations), axis=reduced, keepdims=keepdims)
    return squares / tf.cast(n - correction, x.dtype)


def std(
    x: Arr,
    /,
    *,
    axis: Any = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    return tf.sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


def _cumulative(
    name: str, fn: Any, fill: Any, x: Arr, axis: int | None, dtype: Any, include_initial: bool
) -> Arr:
    """``cumulative_sum`` / ``cumulative_prod``: ``fn`` (``tf.cumsum`` / ``tf.math.cumprod``)
    in the accumulation dtype, ``fill`` (zeros / ones) prepended for ``include_initial``."""
    if axis is None:
        if x.shape.rank != 1:
            raise ValueError(f"{name}: axis is required for a {x.shape.rank}-d array")
        axis = 0
    x = _accumulated(x, dtype)
    ret = fn(x, axis=axis)
    if include_initial:
        shape = list(primitives.shape(ret))
        shape[axis] = 1
        ret = tf.concat([fill(shape, dtype=ret.dtype), ret], axis)
    return ret


def cumulative_sum(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative("cumulative_sum", tf.cumsum, tf.zeros, x, axis, dtype, include_initial)


def cumulative_prod(
    x: Arr,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: bool = False,
    out: Arr | None = None,
) -> Arr:
    return _cumulative("cumulative_prod", tf.math.cumprod, tf.ones, x, axis, dtype, include_initial)
