"""TensorFlow linear algebra. Operands are promoted as the standard says; integer products,
which ``tf.linalg.matmul`` computes only in int32/int64, run in int64 and are cast back
(modular, as NumPy's integer arithmetic wraps)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.axes import contracted_shape
from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.backends.tensorflow._promotion import promoted

Arr = Any


def _int64(x: Arr) -> Arr:
    if x.dtype == tf.uint64:
        return tf.bitcast(x, tf.int64)
    return tf.cast(x, tf.int64)


def _back(x: Arr, dtype: Any) -> Arr:
    if dtype == tf.uint64:
        return tf.bitcast(x, tf.uint64)
    return tf.cast(x, dtype)


def _product(fn: Any, x1: Arr, x2: Arr, **kwargs: Any) -> Arr:
    x1, x2 = promoted([x1, x2])
    dtype = x1.dtype
    if dtype.is_floating or dtype.is_complex:
        return fn(x1, x2, **kwargs)
    return _back(fn(_int64(x1), _int64(x2), **kwargs), dtype)


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """1-d operands as NumPy treats them: a row or a column vector, then squeezed."""
    x1, x2 = tf.convert_to_tensor(x1), tf.convert_to_tensor(x2)
    row, column = x1.shape.rank == 1, x2.shape.rank == 1
    a = x1[None, :] if row else x1
    b = x2[:, None] if column else x2
    ret = _product(tf.linalg.matmul, a, b)
    if row:
        ret = tf.squeeze(ret, -2 if not column else [-2, -1])
    elif column:
        ret = tf.squeeze(ret, -1)
    return ret


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    ret = tf.linalg.cholesky(x)
    return tf.linalg.adjoint(ret) if upper else ret


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    if not isinstance(axes, int):
        axes = [list(axes[0]), list(axes[1])]
    return _product(tf.tensordot, x1, x2, axes=axes)


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    x1, x2 = promoted([x1, x2])
    shape, axis = contracted_shape(primitives.shape(x1), primitives.shape(x2), axis)
    x1, x2 = tf.broadcast_to(x1, shape), tf.broadcast_to(x2, shape)
    if x1.dtype.is_complex:
        x1 = tf.math.conj(x1)
    return tf.reduce_sum(x1 * x2, axis=axis)
