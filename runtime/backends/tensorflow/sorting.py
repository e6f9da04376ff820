"""TensorFlow sorting: ``tf.argsort`` (stable), values gathered by it so that ``sort`` and
``argsort`` agree; sorted along the last axis, other axes moved there.

``tf.argsort`` misplaces NaNs (it sorts with ``top_k``), so floats are sorted twice, stably:
by value with NaN as infinity, then by NaN-ness -- NaNs last ascending and first descending,
where NumPy's sort, reversed, puts them."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow._promotion import to_last

Arr = Any


def _argsort_last(x: Arr, descending: bool) -> Arr:
    key = tf.cast(x, tf.uint8) if x.dtype == tf.bool else x
    direction = "DESCENDING" if descending else "ASCENDING"
    if not key.dtype.is_floating:
        return tf.argsort(key, axis=-1, direction=direction, stable=True)
    nan = tf.math.is_nan(key)
    key = tf.where(nan, tf.constant(float("inf"), key.dtype), key)
    order = tf.argsort(key, axis=-1, direction=direction, stable=True)
    batch = key.shape.rank - 1
    nan_last = tf.gather(tf.cast(nan, tf.int8), order, batch_dims=batch)
    by_nan = tf.argsort(nan_last, axis=-1, direction=direction, stable=True)
    return tf.gather(order, by_nan, batch_dims=batch)


def argsort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    if x.shape.rank == 0:
        return tf.zeros((), tf.int64)
    moved, back = to_last(x, axis)
    return tf.transpose(tf.cast(_argsort_last(moved, descending), tf.int64), back)


def sort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    if x.shape.rank == 0:
        return tf.identity(x)
    moved, back = to_last(x, axis)
    order = _argsort_last(moved, descending)
    return tf.transpose(tf.gather(moved, order, batch_dims=moved.shape.rank - 1), back)
