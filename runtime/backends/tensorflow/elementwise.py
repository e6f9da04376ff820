"""TensorFlow elementwise functions. TensorFlow takes no ``out`` and does not promote mixed
dtypes, so binary functions promote with NumPy's rules first (``_promote``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

Arr = Any


def _np_dtype(x: Any) -> Any:
    return x.dtype.as_numpy_dtype if isinstance(x, (tf.Tensor, tf.Variable)) else x


def _promote(*args: Any) -> list[Any]:
    """Cast operands to NumPy's result type (Python scalars are weak, as in NumPy 2)."""
    dtype = np.result_type(*[_np_dtype(a) for a in args])
    return [tf.cast(a, dtype) for a in args]


def _inexact(x: Any) -> Any:
    """Integers become float64 for transcendental functions, as in NumPy."""
    x = tf.convert_to_tensor(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.abs(x)


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.negative(x)


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.sin(_inexact(x))


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.cos(_inexact(x))


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.tan(_inexact(x))


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.exp(_inexact(x))


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.log(_inexact(x))


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.sqrt(_inexact(x))


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = tf.convert_to_tensor(x)
    return tf.floor(x) if x.dtype.is_floating else tf.identity(x)


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = tf.convert_to_tensor(x)
    return tf.math.ceil(x) if x.dtype.is_floating else tf.identity(x)


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    x = tf.convert_to_tensor(x)
    if not x.dtype.is_floating:
        return tf.identity(x)
    if decimals == 0:
        return tf.round(x)
    scale = tf.cast(10.0**decimals, x.dtype)
    return tf.round(x * scale) / scale


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.add(*_promote(x1, x2))


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.subtract(*_promote(x1, x2))


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.multiply(*_promote(x1, x2))


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.truediv(*_promote(x1, x2))


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.maximum(*_promote(x1, x2))


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.minimum(*_promote(x1, x2))


def clip(
    x: Arr, x_min: Arr | None = None, x_max: Arr | None = None, /, *, out: Arr | None = None
) -> Arr:
    if x_min is not None:
        x = maximum(x, x_min)
    if x_max is not None:
        x = minimum(x, x_max)
    return x


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.where(tf.cast(condition, tf.bool), *_promote(x1, x2))


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    x1, x2 = _promote(x1, x2)
    return tf.math.floormod(x1, x2) if modulus else tf.truncatemod(x1, x2)
