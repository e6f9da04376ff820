"""TensorFlow reductions (``dtype`` is applied by casting the input first)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

Arr = Any


def _prepare(x: Any, axis: Any, dtype: Any) -> tuple[Any, Any]:
    if dtype is not None:
        x = tf.cast(x, dtype)
    return x, axis if axis is None or isinstance(axis, int) else list(axis)


def sum(
    x: Arr,
    /,
    *,
    axis: Any = None,
    dtype: Any = None,
    keepdims: bool = False,
    out: Arr | None = None,
) -> Arr:
    x, axis = _prepare(x, axis, dtype)
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
    x, axis = _prepare(x, axis, dtype)
    return tf.reduce_prod(x, axis=axis, keepdims=keepdims)


def max(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _prepare(x, axis, None)
    return tf.reduce_max(x, axis=axis, keepdims=keepdims)


def min(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _prepare(x, axis, None)
    return tf.reduce_min(x, axis=axis, keepdims=keepdims)
