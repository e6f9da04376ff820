"""TensorFlow elementwise functions.

TensorFlow takes no ``out`` (the wrapper writes it with ``inplace_update``) and has no type
promotion: binary functions cast both operands to the standard's result dtype first
(``_promote``). Integer inputs of the transcendental functions become float64, as NumPy's.
What TensorFlow lacks -- unsigned ``abs``/``negative``/``pow``, ``signbit``, ``copysign``,
``hypot``, ``logaddexp``, ``log2``/``log10``, ``trunc``, ``fmod`` of small integers, shifts
by the bit width or more, bitwise operations on booleans, complex ``isnan`` and rounding --
is composed from what it has.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends._common.complex_special import floor_of_quotient, pow_of_zero, repair
from ivycheck.runtime.backends._common.integer_ops import refuse_negative_power
from ivycheck.runtime.backends._common.promote import bounds, promote, true_division
from ivycheck.runtime.backends.tensorflow import primitives

Arr = Any


def _t(x: Any) -> Any:
    return (
        x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(primitives.keep_zero_sign(x, None))
    )


def _pair(x1: Any, x2: Any) -> list[Any]:
    return promote(primitives, x1, x2)


def _inexact(x: Any) -> Any:
    """Integers and booleans become float64 for transcendental functions, as in NumPy."""
    x = _t(x)
    return x if x.dtype.is_floating or x.dtype.is_complex else tf.cast(x, tf.float64)


def _tabled(name: str, fn: Callable[[Any], Any], x: Arr) -> Arr:
    """``fn(x)``; complex infinities and NaNs as the standard's table says (TensorFlow's
    complex ``log1p``, ``expm1`` and ``sqrt`` give other values there)."""
    x = _inexact(x)
    if x.dtype.is_complex:
        return repair(sys.modules[__name__], tf.complex, name, x, fn)
    return fn(x)


def _is_real_float(x: Any) -> bool:
    return bool(x.dtype.is_floating)


def acos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.acos(_inexact(x))


def acosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.acosh(_inexact(x))


def asin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.asin(_inexact(x))


def asinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.asinh(_inexact(x))


def atan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.atan(_inexact(x))


def atanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.atanh(_inexact(x))


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.cos(_inexact(x))


def cosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.cosh(_inexact(x))


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.exp(_inexact(x))


def expm1(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("expm1", tf.math.expm1, x)


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _ln(_inexact(x))


def _ln(x: Any) -> Any:
    """``tf.math.log``, except where its vectorised complex kernel squares ``|z|`` into an
    overflow: a NaN real part for a finite ``z`` of modulus above about 2e19 (complex64) or
    1e154 (complex128), where ``log|z|`` is finite. Those elements take ``log(abs(z))``
    (``abs`` does not overflow); every other element keeps TensorFlow's value."""
    ln = tf.math.log(x)
    if not x.dtype.is_complex:
        return ln
    real = tf.math.real(ln)
    finite = tf.math.is_finite(tf.math.real(x)) & tf.math.is_finite(tf.math.imag(x))
    lost = tf.math.is_nan(real) & finite
    return tf.complex(tf.where(lost, tf.math.log(tf.abs(x)), real), tf.math.imag(ln))


def log1p(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("log1p", tf.math.log1p, x)


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.sin(_inexact(x))


def sinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.sinh(_inexact(x))


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("sqrt", tf.math.sqrt, x)


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.tan(_inexact(x))


def tanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("tanh", tf.math.tanh, x)  # (tanh(inf + yj) is 1 + 0j whatever sin(2y))


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.add(*_pair(x1, x2))


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.subtract(*_pair(x1, x2))


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.multiply(*_pair(x1, x2))


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.truediv(*_pair(*true_division(primitives, x1, x2)))


def floor_divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    if not x1.dtype.is_floating:  # by zero: 0, as NumPy (``integer_ops``); TF raised
        zero = tf.math.equal(x2, 0)
        safe = tf.where(zero, tf.ones_like(x2), x2)
        return tf.where(zero, tf.zeros_like(x1 + x2), tf.math.floordiv(x1, safe))
    ret = tf.math.floordiv(x1, x2)
    return floor_of_quotient(sys.modules[__name__], x1, x2, ret)


def equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.equal(*_pair(x1, x2))


def not_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.not_equal(*_pair(x1, x2))


def less(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.less(*_pair(x1, x2))


def less_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.less_equal(*_pair(x1, x2))


def greater(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.greater(*_pair(x1, x2))


def greater_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.greater_equal(*_pair(x1, x2))


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.maximum(*_pair(x1, x2))


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.minimum(*_pair(x1, x2))


def atan2(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.atan2(*_pair(x1, x2))


def bitwise_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    return tf.math.logical_and(x1, x2) if x1.dtype == tf.bool else tf.bitwise.bitwise_and(x1, x2)


def bitwise_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    return tf.math.logical_or(x1, x2) if x1.dtype == tf.bool else tf.bitwise.bitwise_or(x1, x2)


def bitwise_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    return tf.math.logical_xor(x1, x2) if x1.dtype == tf.bool else tf.bitwise.bitwise_xor(x1, x2)


def logical_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.logical_and(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def logical_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.logical_or(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def logical_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.logical_xor(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))


def _log_base(x: Any, base: float) -> Any:
    """``log(x) / log(base)``, a complex logarithm divided component by component (a complex
    division would turn ``-inf + 0j`` into ``-inf + nanj``)."""
    x = _inexact(x)
    ln = _ln(x)
    if x.dtype.is_complex:
        scale = tf.constant(math.log(base), x.dtype.real_dtype)
        return tf.complex(tf.math.real(ln) / scale, tf.math.imag(ln) / scale)
    return ln / tf.constant(math.log(base), x.dtype)


def log2(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _log_base(x, 2.0)


def log10(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _log_base(x, 10.0)


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    return tf.identity(x) if x.dtype.is_unsigned else tf.math.abs(x)


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """Unsigned integers wrap around (``0 - x``), as in NumPy."""
    x = _t(x)
    return tf.math.subtract(tf.zeros_like(x), x) if x.dtype.is_unsigned else tf.math.negative(x)


def positive(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.identity(_t(x))


def square(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.square(_t(x))


def sign(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    if x.dtype.is_unsigned:
        return tf.cast(tf.math.not_equal(x, 0), x.dtype)
    if x.dtype.is_complex:  # x / |x| with the parts scaled first (tiny parts underflow)
        re, im = tf.math.real(x), tf.math.imag(x)
        scale = tf.math.maximum(tf.math.abs(re), tf.math.abs(im))
        x = tf.complex(tf.math.divide_no_nan(re, scale), tf.math.divide_no_nan(im, scale))
        return tf.math.divide_no_nan(x, tf.cast(tf.math.abs(x), x.dtype))
    return tf.math.sign(x)


def _integral(x: Any) -> bool:
    return bool(x.dtype.is_integer or x.dtype == tf.bool)


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    return tf.identity(x) if _integral(x) else tf.math.ceil(x)


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    return tf.identity(x) if _integral(x) else tf.math.floor(x)


def trunc(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    return tf.identity(x) if _integral(x) else tf.where(x < 0, tf.math.ceil(x), tf.math.floor(x))


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    """Half to even; complex: each component; integers unchanged."""
    x = _t(x)
    if x.dtype.is_complex:
        parts = (round(p, decimals=decimals) for p in (tf.math.real(x), tf.math.imag(x)))
        return tf.complex(*parts)
    if _integral(x):
        return tf.identity(x)
    if decimals == 0:
        return tf.math.round(x)
    scale = tf.constant(10.0**decimals, x.dtype)
    return tf.math.round(x * scale) / scale


def isfinite(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    if x.dtype.is_complex:
        return tf.math.logical_and(isfinite(tf.math.real(x)), isfinite(tf.math.imag(x)))
    return tf.math.is_finite(x) if _is_real_float(x) else tf.ones_like(x, dtype=tf.bool)


def isinf(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    if x.dtype.is_complex:
        return tf.math.logical_or(isinf(tf.math.real(x)), isinf(tf.math.imag(x)))
    return tf.math.is_inf(x) if _is_real_float(x) else tf.zeros_like(x, dtype=tf.bool)


def isnan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    if x.dtype.is_complex:
        return tf.math.logical_or(isnan(tf.math.real(x)), isnan(tf.math.imag(x)))
    return tf.math.is_nan(x) if _is_real_float(x) else tf.zeros_like(x, dtype=tf.bool)


_SAME_WIDTH_INT = {tf.float16: tf.int16, tf.float32: tf.int32, tf.float64: tf.int64}


def signbit(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """The sign bit read from the bits (true for -0.0 and negative NaNs)."""
    x = _t(x)
    if not _is_real_float(x):
        return tf.math.less(x, 0) if not x.dtype.is_unsigned else tf.zeros_like(x, dtype=tf.bool)
    return tf.math.less(tf.bitcast(x, _SAME_WIDTH_INT[x.dtype]), 0)


def bitwise_invert(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    return tf.math.logical_not(x) if x.dtype == tf.bool else tf.bitwise.invert(x)


def logical_not(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.logical_not(tf.cast(x, tf.bool))


def conj(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.conj(_t(x))


def real(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.real(_t(x))


def imag(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.imag(_t(x))


def pow(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Unsigned integers (no kernel) on the int64 bits: right modulo 2**bits."""
    x1, x2 = _pair(x1, x2)
    if x1.dtype.is_complex:  # x ** 0 is 1, as for real x (exp(0 * log(0)) would be NaN)
        ret = tf.where(tf.math.equal(x2, 0), tf.ones_like(x1), tf.math.pow(x1, x2))
        return pow_of_zero(sys.modules[__name__], tf.complex, x1, x2, ret)
    if not x1.dtype.is_unsigned:
        if x1.dtype.is_integer:
            refuse_negative_power(bool(tf.reduce_any(x2 < 0)))  # (``integer_ops``)
        return tf.math.pow(x1, x2)
    if x1.dtype == tf.uint64:
        signed = (tf.bitcast(x, tf.int64) for x in (x1, x2))
        return tf.bitcast(tf.math.pow(*signed), tf.uint64)
    return tf.cast(tf.math.pow(tf.cast(x1, tf.int64), tf.cast(x2, tf.int64)), x1.dtype)


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    """``modulus=False``: C's ``fmod``, from ``floormod`` (``truncatemod`` lacks small and
    unsigned integer kernels): a non-zero result of operands of different signs moves by
    ``x2``."""
    x1, x2 = _pair(x1, x2)
    if not x1.dtype.is_floating:  # by zero: 0, as NumPy (``integer_ops``); TF raised
        zero = tf.math.equal(x2, 0)
        mod = _remainder(x1, tf.where(zero, tf.ones_like(x2), x2), modulus)
        return tf.where(zero, tf.zeros_like(mod), mod)
    return _remainder(x1, x2, modulus)


def _remainder(x1: Arr, x2: Arr, modulus: bool) -> Arr:
    mod = tf.math.floormod(x1, x2)
    if modulus and x1.dtype.is_floating:  # a zero takes the sign of x2 (0.0 % -1.0 is -0.0)
        return tf.where(tf.math.equal(mod, 0), copysign(tf.zeros_like(mod), x2), mod)
    if modulus or x1.dtype.is_unsigned:
        return mod
    differ = tf.math.not_equal(tf.math.less(x1, 0), tf.math.less(x2, 0))
    return tf.where(tf.math.logical_and(differ, tf.math.not_equal(mod, 0)), mod - x2, mod)


def _bits(dtype: Any) -> int:
    return int(dtype.size) * 8


def bitwise_left_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Shifts by the bit width or more give 0 (TensorFlow leaves them undefined)."""
    x1, x2 = _pair(x1, x2)
    bits = _bits(x1.dtype)
    ret = tf.bitwise.left_shift(x1, tf.math.minimum(x2, bits - 1))
    return tf.where(tf.math.greater_equal(x2, bits), tf.zeros_like(ret), ret)


def bitwise_right_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Arithmetic shift; by the bit width or more: 0, or -1 for negative ``x1``."""
    x1, x2 = _pair(x1, x2)
    bits = _bits(x1.dtype)
    far = tf.math.greater_equal(x2, bits)
    ret = tf.bitwise.right_shift(x1, tf.where(far, tf.cast(bits - 1, x2.dtype), x2))
    if x1.dtype.is_unsigned:
        return tf.where(far, tf.zeros_like(ret), ret)
    return ret


def copysign(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    magnitude = tf.math.abs(x1)
    return tf.where(signbit(x2), -magnitude, magnitude)


def hypot(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Scaled by the larger magnitude (no overflow of the squares); infinite if either is."""
    x1, x2 = _pair(x1, x2)
    a, b = tf.math.abs(x1), tf.math.abs(x2)
    big, small = tf.math.maximum(a, b), tf.math.minimum(a, b)
    ratio = tf.math.divide_no_nan(small, big)
    ret = big * tf.math.sqrt(1 + ratio * ratio)
    either_inf = tf.math.logical_or(tf.math.is_inf(a), tf.math.is_inf(b))
    return tf.where(either_inf, tf.constant(math.inf, ret.dtype), ret)  # NaN beside inf too


def logaddexp(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """``max + log1p(exp(-|x1 - x2|))``; equal operands (infinities too) give ``x + log 2``."""
    x1, x2 = _pair(x1, x2)
    big = tf.math.maximum(x1, x2)
    ret = big + tf.math.log1p(tf.math.exp(-tf.math.abs(x1 - x2)))
    return tf.where(tf.math.equal(x1, x2), x1 + tf.constant(math.log(2.0), x1.dtype), ret)


def clip(
    x: Arr, /, min: Arr | None = None, max: Arr | None = None, *, out: Arr | None = None
) -> Arr:
    """``maximum`` then ``minimum`` with the bounds cast to ``x``'s dtype (NaN bounds give NaN)."""
    x = ret = _t(x)
    low, high = bounds(primitives, x, min, max)
    if low is not None:
        ret = tf.math.maximum(ret, low)
    if high is not None:
        ret = tf.math.minimum(ret, high)
    return tf.identity(ret)


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.where(tf.cast(condition, tf.bool), *_pair(x1, x2))


def nextafter(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.math.nextafter(*_pair(x1, x2))


def reciprocal(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return divide(1, x)
