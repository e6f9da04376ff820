"""TensorFlow truth tests on ``x != 0`` (``tf.reduce_all`` takes bool only)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

Arr = Any


def _truth(x: Arr, axis: Any) -> tuple[Arr, Any]:
    x = x if x.dtype == tf.bool else tf.not_equal(x, tf.zeros_like(x))
    return x, axis if axis is None or isinstance(axis, int) else list(axis)


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _truth(x, axis)
    return tf.reduce_all(x, axis=axis, keepdims=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _truth(x, axis)
    return tf.reduce_any(x, axis=axis, keepdims=keepdims)
