"""TensorFlow indexing functions (``tf.gather`` refuses negative indices: wrapped first)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

Arr = Any


def take(x: Arr, indices: Arr, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    indices = tf.cast(indices, tf.int64)
    n = tf.shape(x, out_type=tf.int64)[axis]
    return tf.gather(x, tf.where(indices < 0, indices + n, indices), axis=axis)


def take_along_axis(x: Arr, indices: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    indices = tf.cast(indices, tf.int64)
    n = tf.shape(x, out_type=tf.int64)[axis]
    indices = tf.where(indices < 0, indices + n, indices)
    return tf.experimental.numpy.take_along_axis(x, indices, axis)
