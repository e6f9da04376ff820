"""TensorFlow truth tests on ``x != 0`` (``tf.reduce_all`` takes bool only)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

Arr = Any


_BITS = {tf.float16: tf.uint16, tf.float32: tf.uint32, tf.float64: tf.uint64}


def truth(x: Arr) -> Arr:
    """``x != 0`` as bool. TensorFlow flushes subnormal floats to zero in comparisons, so a
    float is compared by its bits without the sign bit (-0.0 is false, 5e-324 true)."""
    if x.dtype == tf.bool:
        return x
    if x.dtype in _BITS:
        bits = tf.bitcast(x, _BITS[x.dtype])
        return tf.not_equal(tf.bitwise.left_shift(bits, tf.ones_like(bits)), 0)
    if x.dtype.is_complex:
        return tf.logical_or(truth(tf.math.real(x)), truth(tf.math.imag(x)))
    return tf.not_equal(x, tf.zeros_like(x))


def _truth(x: Arr, axis: Any) -> tuple[Arr, Any]:
    return truth(x), axis if axis is None or isinstance(axis, int) else list(axis)


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _truth(x, axis)
    return tf.reduce_all(x, axis=axis, keepdims=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    x, axis = _truth(x, axis)
    return tf.reduce_any(x, axis=axis, keepdims=keepdims)


def diff(
    x: Arr,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Arr | None = None,
    append: Arr | None = None,
    out: Arr | None = None,
) -> Arr:
    """Slices subtracted ``n`` times (``tf.experimental.numpy.diff`` takes no ``prepend``)."""
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = tf.concat(parts, axis)
    axis = axis % x.shape.rank
    for _ in range(n):
        head = [slice(None)] * axis + [slice(1, None)]
        tail = [slice(None)] * axis + [slice(None, -1)]
        a, b = x[tuple(head)], x[tuple(tail)]
        x = tf.not_equal(a, b) if x.dtype == tf.bool else a - b
    return x
