"""NumPy elementwise functions: NumPy is the oracle of the other backends.

Every function that is a ufunc forwards ``out`` natively (``support_native_out``). NumPy 2's
promotion is the standard's on every pair of dtypes the standard defines (value-independent,
Python scalars weak), so binary functions call the ufunc directly, with no casting of their
own.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.complex_special import floor_of_quotient
from ivycheck.runtime.backends._common.integer_ops import refuse_negative_power
from ivycheck.runtime.backends._common.promote import bounds
from ivycheck.runtime.backends.numpy import primitives

Arr = Any


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.abs(x, out=out)


abs.support_native_out = True  # type: ignore[attr-defined]


def acos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arccos(x, out=out)


acos.support_native_out = True  # type: ignore[attr-defined]


def acosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arccosh(x, out=out)


acosh.support_native_out = True  # type: ignore[attr-defined]


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.add(x1, x2, out=out)


add.support_native_out = True  # type: ignore[attr-defined]


def asin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arcsin(x, out=out)


asin.support_native_out = True  # type: ignore[attr-defined]


def asinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arcsinh(x, out=out)


asinh.support_native_out = True  # type: ignore[attr-defined]


def atan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arctan(x, out=out)


atan.support_native_out = True  # type: ignore[attr-defined]


def atan2(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arctan2(x1, x2, out=out)


atan2.support_native_out = True  # type: ignore[attr-defined]


def atanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.arctanh(x, out=out)


atanh.support_native_out = True  # type: ignore[attr-defined]


def bitwise_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.bitwise_and(x1, x2, out=out)


bitwise_and.support_native_out = True  # type: ignore[attr-defined]


def bitwise_invert(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.invert(x, out=out)


bitwise_invert.support_native_out = True  # type: ignore[attr-defined]


def bitwise_left_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.left_shift(x1, x2, out=out)


bitwise_left_shift.support_native_out = True  # type: ignore[attr-defined]


def bitwise_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.bitwise_or(x1, x2, out=out)


bitwise_or.support_native_out = True  # type: ignore[attr-defined]


def bitwise_right_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.right_shift(x1, x2, out=out)


bitwise_right_shift.support_native_out = True  # type: ignore[attr-defined]


def bitwise_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.bitwise_xor(x1, x2, out=out)


bitwise_xor.support_native_out = True  # type: ignore[attr-defined]


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.ceil(x, out=out)


ceil.support_native_out = True  # type: ignore[attr-defined]


def clip(
    x: Arr, /, min: Arr | None = None, max: Arr | None = None, *, out: Arr | None = None
) -> Arr:
    """The bounds are cast to ``x``'s dtype: they do not take part in promotion."""
    x = np.asarray(x)
    low, high = bounds(primitives, x, min, max)
    return np.clip(x, low, high, out=out)


clip.support_native_out = True  # type: ignore[attr-defined]


def conj(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.conj(x, out=out)


conj.support_native_out = True  # type: ignore[attr-defined]


def copysign(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.copysign(x1, x2, out=out)


copysign.support_native_out = True  # type: ignore[attr-defined]


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.cos(x, out=out)


cos.support_native_out = True  # type: ignore[attr-defined]


def cosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.cosh(x, out=out)


cosh.support_native_out = True  # type: ignore[attr-defined]


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.divide(x1, x2, out=out)


divide.support_native_out = True  # type: ignore[attr-defined]


def equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.equal(x1, x2, out=out)


equal.support_native_out = True  # type: ignore[attr-defined]


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.exp(x, out=out)


exp.support_native_out = True  # type: ignore[attr-defined]


def expm1(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """Complex infinities and NaNs as the standard's table says: ``exp(x) - 1`` there
    (``np.expm1(inf + 0j)`` is ``inf + nanj``; the standard and ``np.exp`` give ``inf + 0j``),
    and a zero gives a +0 real part (``np.expm1(-0 + 0j)`` keeps the -0)."""
    if not np.iscomplexobj(x):
        return np.expm1(x, out=out)
    finite = np.isfinite(x)
    ret = np.asarray(np.subtract(np.where(finite, np.expm1(x), np.exp(x)), ~finite, out=out))
    np.copyto(ret.real, 0.0, where=np.equal(x, 0))  # (asarray: a 0-d result is a NumPy scalar)
    return ret


expm1.support_native_out = True  # type: ignore[attr-defined]


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.floor(x, out=out)


floor.support_native_out = True  # type: ignore[attr-defined]


def floor_divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    ret = np.floor_divide(x1, x2, out=out)
    if ret.dtype.kind != "f":
        return ret
    with np.errstate(divide="ignore", invalid="ignore"):  # (warned once, above)
        fixed = floor_of_quotient(sys.modules[__name__], x1, x2, ret)
    if out is None:
        return fixed
    out[...] = fixed
    return out


floor_divide.support_native_out = True  # type: ignore[attr-defined]


def greater(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.greater(x1, x2, out=out)


greater.support_native_out = True  # type: ignore[attr-defined]


def greater_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.greater_equal(x1, x2, out=out)


greater_equal.support_native_out = True  # type: ignore[attr-defined]


def hypot(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.hypot(x1, x2, out=out)


hypot.support_native_out = True  # type: ignore[attr-defined]


def imag(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """A copy: ``np.imag`` of a complex array is a view of it (of a real one, the array itself)."""
    return np.array(np.imag(x))


def isfinite(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.isfinite(x, out=out)


isfinite.support_native_out = True  # type: ignore[attr-defined]


def isinf(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.isinf(x, out=out)


isinf.support_native_out = True  # type: ignore[attr-defined]


def isnan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.isnan(x, out=out)


isnan.support_native_out = True  # type: ignore[attr-defined]


def less(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.less(x1, x2, out=out)


less.support_native_out = True  # type: ignore[attr-defined]


def less_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.less_equal(x1, x2, out=out)


less_equal.support_native_out = True  # type: ignore[attr-defined]


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.log(x, out=out)


log.support_native_out = True  # type: ignore[attr-defined]


def log10(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.log10(x, out=out)


log10.support_native_out = True  # type: ignore[attr-defined]


def log1p(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.log1p(x, out=out)


log1p.support_native_out = True  # type: ignore[attr-defined]


def log2(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.log2(x, out=out)


log2.support_native_out = True  # type: ignore[attr-defined]


def logaddexp(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.logaddexp(x1, x2, out=out)


logaddexp.support_native_out = True  # type: ignore[attr-defined]


def logical_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.logical_and(x1, x2, out=out)


logical_and.support_native_out = True  # type: ignore[attr-defined]


def logical_not(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.logical_not(x, out=out)


logical_not.support_native_out = True  # type: ignore[attr-defined]


def logical_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.logical_or(x1, x2, out=out)


logical_or.support_native_out = True  # type: ignore[attr-defined]


def logical_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.logical_xor(x1, x2, out=out)


logical_xor.support_native_out = True  # type: ignore[attr-defined]


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.maximum(x1, x2, out=out)


maximum.support_native_out = True  # type: ignore[attr-defined]


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.minimum(x1, x2, out=out)


minimum.support_native_out = True  # type: ignore[attr-defined]


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.multiply(x1, x2, out=out)


multiply.support_native_out = True  # type: ignore[attr-defined]


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.negative(x, out=out)


negative.support_native_out = True  # type: ignore[attr-defined]


def not_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.not_equal(x1, x2, out=out)


not_equal.support_native_out = True  # type: ignore[attr-defined]


def positive(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.positive(x, out=out)


positive.support_native_out = True  # type: ignore[attr-defined]


def pow(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """A negative integer exponent is refused before NumPy writes into ``out``
    (:mod:`integer_ops`)."""
    if np.result_type(x1, x2).kind in "iu":
        refuse_negative_power(bool(np.any(np.less(x2, 0))))
    return np.power(x1, x2, out=out)


pow.support_native_out = True  # type: ignore[attr-defined]


def real(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """A copy: ``np.real`` of a complex array is a view of it (of a real one, the array itself)."""
    return np.array(np.real(x))


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    if modulus:
        return np.remainder(x1, x2, out=out)
    return np.fmod(x1, x2, out=out)


remainder.support_native_out = True  # type: ignore[attr-defined]


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    return np.round(x, decimals, out=out)


round.support_native_out = True  # type: ignore[attr-defined]


def sign(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sign(x, out=out)


sign.support_native_out = True  # type: ignore[attr-defined]


def signbit(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.signbit(x, out=out)


signbit.support_native_out = True  # type: ignore[attr-defined]


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sin(x, out=out)


sin.support_native_out = True  # type: ignore[attr-defined]


def sinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sinh(x, out=out)


sinh.support_native_out = True  # type: ignore[attr-defined]


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sqrt(x, out=out)


sqrt.support_native_out = True  # type: ignore[attr-defined]


def square(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.square(x, out=out)


square.support_native_out = True  # type: ignore[attr-defined]


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.subtract(x1, x2, out=out)


subtract.support_native_out = True  # type: ignore[attr-defined]


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.tan(x, out=out)


tan.support_native_out = True  # type: ignore[attr-defined]


def tanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """``tanh(+-inf + yj)`` for finite ``y`` is ``+-1 + 0j`` with ``y``'s sign on the zero, as
    the standard's table says (NumPy follows ``sin(2y)``'s sign there)."""
    ret = np.tanh(x, out=out)
    if not np.iscomplexobj(ret):
        return ret
    ret = np.asarray(ret)  # (a 0-d result is a NumPy scalar)
    infinite = np.logical_and(np.isinf(np.real(x)), np.isfinite(np.imag(x)))
    np.copyto(ret.imag, np.copysign(0.0, np.imag(x)), where=infinite)
    return ret


tanh.support_native_out = True  # type: ignore[attr-defined]


def trunc(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.trunc(x, out=out)


trunc.support_native_out = True  # type: ignore[attr-defined]


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    # np.where has no ``out``: the wrapper writes the result with inplace_update.
    return np.where(condition, x1, x2)


def nextafter(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.nextafter(x1, x2, out=out)


nextafter.support_native_out = True  # type: ignore[attr-defined]


def reciprocal(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return divide(1, x, out=out)


reciprocal.support_native_out = True  # type: ignore[attr-defined]
