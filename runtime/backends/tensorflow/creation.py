"""TensorFlow creation functions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow import primitives

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.zeros(shape, dtype=dtype or tf.float32)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.ones(shape, dtype=dtype or tf.float32)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.zeros(shape, dtype=dtype or tf.float32)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.fill(shape if not isinstance(shape, int) else [shape], tf.cast(fill_value, dtype))


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    return tf.range(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    ret = tf.linspace(tf.cast(start, tf.float64), tf.cast(stop, tf.float64), num + (not endpoint))
    return tf.cast(ret if endpoint else ret[:-1], dtype or tf.float32)


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return primitives.copy(x)
