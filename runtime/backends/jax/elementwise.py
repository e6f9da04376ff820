"""JAX elementwise functions. ``jax.numpy`` takes no ``out``: none carries
``support_native_out``; the wrapper writes ``out`` through ``inplace_update``. JAX's promotion
is the standard's on every pair the standard defines (Python scalars weak), so the functions
call ``jax.numpy`` directly."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax

from ivycheck.runtime.backends._common.complex_special import floor_of_quotient, pow_of_zero, repair
from ivycheck.runtime.backends._common.integer_ops import refuse_negative_power
from ivycheck.runtime.backends._common.promote import bounds, promote, true_division
from ivycheck.runtime.backends.jax import primitives

Arr = Any


def _tabled(name: str, fn: Callable[[Any], Any], x: Arr) -> Arr:
    """``fn(x)``; complex infinities, NaNs and zeros as the standard's table says (XLA's
    complex kernels give other values there)."""
    if not isinstance(x, jax.Array):  # (``jnp.asarray`` of a JAX array is the array itself)
        x = jnp.asarray(x)
    if x.dtype.kind == "c":  # ``jnp.iscomplexobj``, without its dtype lookups (a few us)
        return repair(sys.modules[__name__], lax.complex, name, x, fn)
    return fn(x)


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.abs(x)


def acos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("acos", jnp.acos, x)


def acosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("acosh", jnp.acosh, x)


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.add(x1, x2)


def asin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.asin(x)


def asinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("asinh", jnp.asinh, x)


def atan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.atan(x)


def atan2(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.atan2(x1, x2)


def atanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("atanh", jnp.atanh, x)


def bitwise_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_and(x1, x2)


def bitwise_invert(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_invert(x)


def bitwise_left_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_left_shift(x1, x2)


def bitwise_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_or(x1, x2)


def bitwise_right_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_right_shift(x1, x2)


def bitwise_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.bitwise_xor(x1, x2)


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.ceil(x)


def conj(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.conj(x)


def copysign(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.copysign(x1, x2)


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.cos(x)


def cosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("cosh", jnp.cosh, x)


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.divide(*true_division(primitives, x1, x2))


def equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.equal(x1, x2)


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("exp", jnp.exp, x)


def expm1(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("expm1", jnp.expm1, x)


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.floor(x)


def floor_divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """A zero quotient of floats carries the sign of ``x1 * x2`` (``-0.0 // 1.0`` is -0.0,
    as the standard says; XLA gives +0.0)."""
    ret = jnp.floor_divide(x1, x2)
    if not jnp.issubdtype(ret.dtype, jnp.floating):
        return jnp.where(jnp.equal(x2, 0), 0, ret)  # 0, as NumPy (``integer_ops``); XLA: -1
    ret = jnp.where(ret == 0, jnp.copysign(ret, jnp.multiply(x1, x2)), ret)
    return floor_of_quotient(sys.modules[__name__], x1, x2, ret)


def greater(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.greater(x1, x2)


def greater_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.greater_equal(x1, x2)


def hypot(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.hypot(x1, x2)


def imag(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.imag(x)


def isfinite(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.isfinite(x)


def isinf(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.isinf(x)


def isnan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.isnan(x)


def less(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.less(x1, x2)


def less_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.less_equal(x1, x2)


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("log", jnp.log, x)


def log10(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.log10(x)


def log1p(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("log1p", jnp.log1p, x)


def log2(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.log2(x)


def logaddexp(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.logaddexp(x1, x2)


def logical_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.logical_and(x1, x2)


def logical_not(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.logical_not(x)


def logical_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.logical_or(x1, x2)


def logical_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.logical_xor(x1, x2)


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.maximum(x1, x2)


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.minimum(x1, x2)


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.multiply(x1, x2)


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.negative(x)


def not_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.not_equal(x1, x2)


def positive(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.positive(x)


def pow(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Promoted first: ``jnp.pow`` keeps ``x1``'s dtype for an integer exponent array."""
    x1, x2 = promote(primitives, x1, x2)
    if jnp.issubdtype(x1.dtype, jnp.signedinteger):
        refuse_negative_power(bool(jnp.any(x2 < 0)))  # (``integer_ops``)
    ret = jnp.pow(x1, x2)
    if jnp.iscomplexobj(ret):
        return pow_of_zero(sys.modules[__name__], lax.complex, x1, x2, ret)
    return ret


def real(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.real(x)


def sign(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """Zeros give +0 (``0 + 0j``), as the standard says; XLA keeps the zero's sign."""
    x = jnp.asarray(x)
    return jnp.where(x == 0, jnp.zeros_like(x), jnp.sign(x))


def signbit(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.signbit(x)


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.sin(x)


def sinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("sinh", jnp.sinh, x)


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("sqrt", jnp.sqrt, x)


def square(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.square(x)


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.subtract(x1, x2)


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.tan(x)


def tanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("tanh", jnp.tanh, x)


def trunc(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.trunc(x)


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    return jnp.round(x, decimals)


def clip(
    x: Arr, /, min: Arr | None = None, max: Arr | None = None, *, out: Arr | None = None
) -> Arr:
    """The bounds are cast to ``x``'s dtype: they do not take part in promotion."""
    x = jnp.asarray(x)
    low, high = bounds(primitives, x, min, max)
    return jnp.clip(x, low, high)


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.where(condition, x1, x2)


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    """A zero modulus takes the sign of ``x2`` (``0.0 % -1.0`` is -0.0; XLA gives +0.0)."""
    if not modulus:
        return jnp.fmod(x1, x2)
    ret = jnp.remainder(x1, x2)
    if not jnp.issubdtype(ret.dtype, jnp.floating):
        return ret
    return jnp.where(ret == 0, jnp.copysign(ret, x2), ret)


def nextafter(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.nextafter(x1, x2)


def reciprocal(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return divide(1, x)
