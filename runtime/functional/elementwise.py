"""Elementwise functions of the Array API 2025.12 standard (2023.12's and 2024.12's
``nextafter`` and ``reciprocal``).

Each delegates to the backend; the wrappers declared above it do the rest (``func_wrapper``).
Binary functions take an array or a Python scalar for either operand, and every backend gives
the standard's result dtype (``dtypes.result_type``): a backend whose native promotion differs
casts the operands to that dtype first, and a Python float beside an integer array gives the
default float32 on every backend (``backends._common.promote.weak_scalars``, applied by the wrapper).
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray

Operand = Array | NativeArray | bool | int | float | complex

RESULT_LAYOUT_FROM_INPUTS = True
"""Every function here gives a result whose dtype and shape follow from its arguments' dtypes
and shapes alone (promotion and broadcasting; never their values): the C paths may remember,
per function, the layout a call of arrays of given layouts gave (``dispatch/build.py``)."""


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def abs(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Absolute value (for complex input: the magnitude, a real dtype)."""
    return current_backend(x).abs(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def acos(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse cosine."""
    return current_backend(x).acos(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def acosh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse hyperbolic cosine."""
    return current_backend(x).acosh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def add(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Sum."""
    return current_backend(x1, x2).add(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def asin(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse sine."""
    return current_backend(x).asin(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def asinh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse hyperbolic sine."""
    return current_backend(x).asinh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def atan(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse tangent."""
    return current_backend(x).atan(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def atan2(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse tangent of ``x1 / x2`` in the quadrant of ``(x2, x1)``."""
    return current_backend(x1, x2).atan2(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def atanh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Inverse hyperbolic tangent."""
    return current_backend(x).atanh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_and(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Bitwise AND of integers or booleans."""
    return current_backend(x1, x2).bitwise_and(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_invert(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Bitwise NOT of integers, logical NOT of booleans."""
    return current_backend(x).bitwise_invert(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_left_shift(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Shift ``x1`` left by ``x2`` bits (``x2`` non-negative)."""
    return current_backend(x1, x2).bitwise_left_shift(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_or(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Bitwise OR of integers or booleans."""
    return current_backend(x1, x2).bitwise_or(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_right_shift(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Arithmetic shift of ``x1`` right by ``x2`` bits (``x2`` non-negative)."""
    return current_backend(x1, x2).bitwise_right_shift(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def bitwise_xor(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Bitwise XOR of integers or booleans."""
    return current_backend(x1, x2).bitwise_xor(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ceil(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Round towards +infinity (integers are returned unchanged, in their dtype)."""
    return current_backend(x).ceil(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def clip(
    x: Operand,
    /,
    min: Operand | None = None,
    max: Operand | None = None,
    *,
    out: Optional[Array] = None,
) -> Array:
    """Limit values to ``[min, max]`` (either bound may be omitted, or both).

    The result keeps ``x``'s dtype: the bounds do not take part in type promotion (the
    standard's rule), and a NaN bound gives NaN.
    """
    return current_backend(x).clip(x, min, max, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def conj(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Complex conjugate (a new array: never a lazily conjugated view of ``x``)."""
    return current_backend(x).conj(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def copysign(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """The magnitude of ``x1`` with the sign of ``x2``."""
    return current_backend(x1, x2).copysign(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cos(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Cosine."""
    return current_backend(x).cos(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cosh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Hyperbolic cosine."""
    return current_backend(x).cosh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def divide(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """True division."""
    return current_backend(x1, x2).divide(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def equal(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 == x2``; a bool array."""
    return current_backend(x1, x2).equal(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def exp(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Natural exponential."""
    return current_backend(x).exp(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def expm1(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``exp(x) - 1``, accurate for small ``x``."""
    return current_backend(x).expm1(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def floor(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Round towards -infinity (integers are returned unchanged, in their dtype)."""
    return current_backend(x).floor(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def floor_divide(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Division rounded towards -infinity (Python's ``//``)."""
    return current_backend(x1, x2).floor_divide(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def greater(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 > x2``; a bool array."""
    return current_backend(x1, x2).greater(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def greater_equal(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 >= x2``; a bool array."""
    return current_backend(x1, x2).greater_equal(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def hypot(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``sqrt(x1**2 + x2**2)`` without undue overflow or underflow."""
    return current_backend(x1, x2).hypot(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def imag(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Imaginary component of a complex array, in the matching real dtype (a new array)."""
    return current_backend(x).imag(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def isfinite(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Whether each element is finite (neither infinite nor NaN)."""
    return current_backend(x).isfinite(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def isinf(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Whether each element is +/- infinity (either component, for complex)."""
    return current_backend(x).isinf(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def isnan(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Whether each element is NaN (either component, for complex)."""
    return current_backend(x).isnan(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def less(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 < x2``; a bool array."""
    return current_backend(x1, x2).less(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def less_equal(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 <= x2``; a bool array."""
    return current_backend(x1, x2).less_equal(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def log(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Natural logarithm."""
    return current_backend(x).log(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def log10(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Base-10 logarithm."""
    return current_backend(x).log10(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def log1p(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``log(1 + x)``, accurate for small ``x``."""
    return current_backend(x).log1p(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def log2(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Base-2 logarithm."""
    return current_backend(x).log2(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def logaddexp(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``log(exp(x1) + exp(x2))`` without undue overflow."""
    return current_backend(x1, x2).logaddexp(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def logical_and(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Logical AND (non-zero is true); a bool array."""
    return current_backend(x1, x2).logical_and(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def logical_not(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Logical NOT (non-zero is true); a bool array."""
    return current_backend(x).logical_not(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def logical_or(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Logical OR (non-zero is true); a bool array."""
    return current_backend(x1, x2).logical_or(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def logical_xor(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Logical XOR (non-zero is true); a bool array."""
    return current_backend(x1, x2).logical_xor(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def maximum(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Elementwise maximum (NaN if either is NaN)."""
    return current_backend(x1, x2).maximum(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def minimum(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Elementwise minimum (NaN if either is NaN)."""
    return current_backend(x1, x2).minimum(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def multiply(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Product."""
    return current_backend(x1, x2).multiply(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def negative(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Numerical negative."""
    return current_backend(x).negative(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def not_equal(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1 != x2``; a bool array."""
    return current_backend(x1, x2).not_equal(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def positive(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Numerical positive: a new array equal to ``x`` (never ``x`` itself)."""
    return current_backend(x).positive(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def pow(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1`` raised to ``x2``."""
    return current_backend(x1, x2).pow(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def real(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Real component, in the matching real dtype (a new array, not a view of ``x``)."""
    return current_backend(x).real(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def remainder(
    x1: Operand, x2: Operand, /, *, modulus: bool = True, out: Optional[Array] = None
) -> Array:
    """Remainder of division: sign of the divisor (``modulus=True``, the standard's and Python's
    ``%``) or of the dividend (``modulus=False``, C's ``fmod``)."""
    return current_backend(x1, x2).remainder(x1, x2, modulus=modulus, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def round(x: Operand, /, *, decimals: int = 0, out: Optional[Array] = None) -> Array:
    """Round half to even, to ``decimals`` places (complex: each component)."""
    return current_backend(x).round(x, decimals=decimals, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sign(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Sign: -1, 0 or 1 for real input, ``x / |x|`` for complex input (0 for 0)."""
    return current_backend(x).sign(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def signbit(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Whether the sign bit is set (true for -0.0 and negative NaNs); a bool array."""
    return current_backend(x).signbit(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sin(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Sine."""
    return current_backend(x).sin(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sinh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Hyperbolic sine."""
    return current_backend(x).sinh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sqrt(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Square root."""
    return current_backend(x).sqrt(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def square(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x * x``."""
    return current_backend(x).square(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def subtract(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Difference."""
    return current_backend(x1, x2).subtract(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def tan(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Tangent."""
    return current_backend(x).tan(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def tanh(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Hyperbolic tangent."""
    return current_backend(x).tanh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def trunc(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Round towards zero (integers are returned unchanged, in their dtype)."""
    return current_backend(x).trunc(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def where(condition: Operand, x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1`` where ``condition`` holds, else ``x2`` (promoted as the standard says)."""
    return current_backend(x1, x2).where(condition, x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def nextafter(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """The next representable float after ``x1`` towards ``x2`` (2024.12)."""
    return current_backend(x1, x2).nextafter(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def reciprocal(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``1 / x`` (2024.12); integers give float64, as ``divide`` does."""
    return current_backend(x).reciprocal(x, out=out)
