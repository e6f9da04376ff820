"""TensorFlow searching functions. ``tf.argmax`` does not say which of tied or NaN elements
it returns; the standard (and NumPy) want the first maximum, a NaN counting as one."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow import primitives, utility
from ivycheck.runtime.backends.tensorflow._promotion import promoted

Arr = Any


def _first(hits: Arr, axis: int) -> Arr:
    """Index of the first true element along ``axis`` (0 where there is none)."""
    return tf.argmax(tf.cast(hits, tf.int8), axis=axis, output_type=tf.int64)


def _arg(reduce: Any, x: Arr, axis: int | None, keepdims: bool) -> Arr:
    flat = axis is None
    data = tf.reshape(x, [-1]) if flat else x
    axis = 0 if flat else axis % x.shape.rank
    if data.dtype == tf.bool:
        data = tf.cast(data, tf.uint8)
    extreme = reduce(data, axis=axis, keepdims=True)
    hits = tf.equal(data, extreme)
    if data.dtype.is_floating:  # a NaN makes the extreme NaN, equal to nothing: its own hit
        hits = tf.logical_or(hits, tf.math.is_nan(data))
    ret = _first(hits, axis)
    if keepdims:
        shape = [1] * x.shape.rank if flat else list(primitives.shape(x))
        if not flat:
            shape[axis] = 1
        ret = tf.reshape(ret, shape)
    return ret


def argmax(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return _arg(tf.reduce_max, x, axis, keepdims)


def argmin(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return _arg(tf.reduce_min, x, axis, keepdims)


def nonzero(x: Arr, /) -> tuple[Arr, ...]:
    if x.shape.rank == 0:
        raise ValueError("nonzero of a 0-d array (use nonzero(atleast_1d(x)))")
    where = tf.where(utility.truth(x))
    return tuple(where[:, a] for a in range(x.shape.rank))


def searchsorted(
    x1: Arr, x2: Arr, /, *, side: str = "left", sorter: Arr | None = None, out: Arr | None = None
) -> Arr:
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', not {side!r}")
    x1, x2 = promoted([x1, x2])
    if sorter is not None:
        x1 = tf.gather(x1, sorter)
    if x1.dtype == tf.bool:
        x1, x2 = tf.cast(x1, tf.uint8), tf.cast(x2, tf.uint8)
    values = tf.reshape(x2, [-1])
    if not x1.dtype.is_floating:
        ret = tf.searchsorted(x1, values, side=side, out_type=tf.int64)
        return tf.reshape(ret, tf.shape(x2))
    # NaN is the largest value, as the runtime's ``sort`` puts it (NumPy's answer): the
    # numbers are searched among the numbers, a NaN goes before (left) or after (right) the
    # NaNs; TensorFlow's comparisons with NaN gave positions anywhere.
    count = int(tf.reduce_sum(tf.cast(tf.math.logical_not(tf.math.is_nan(x1)), tf.int64)))
    ret = tf.searchsorted(x1[:count], values, side=side, out_type=tf.int64)
    nan_position = tf.constant(count if side == "left" else int(tf.size(x1)), tf.int64)
    ret = tf.where(tf.math.is_nan(values), nan_position, ret)
    return tf.reshape(ret, tf.shape(x2))


def count_nonzero(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    truth = tf.cast(utility.truth(x), tf.int64)
    if axis == ():
        return truth
    axis = axis if axis is None or isinstance(axis, int) else list(axis)
    return tf.reduce_sum(truth, axis=axis, keepdims=keepdims)
