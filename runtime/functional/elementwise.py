"""Elementwise functions: primary (backend-implemented) and wrapped for ``out``.

Each delegates to the backend; the wrappers declared above it do the rest (``func_wrapper``).
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

Operand = Array | NativeArray | float


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def abs(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Absolute value."""
    return current_backend(x).abs(x, out=out)


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
def sin(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Sine."""
    return current_backend(x).sin(x, out=out)


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
def tan(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Tangent."""
    return current_backend(x).tan(x, out=out)


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
def log(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Natural logarithm."""
    return current_backend(x).log(x, out=out)


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
def floor(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Round down."""
    return current_backend(x).floor(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ceil(x: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Round up."""
    return current_backend(x).ceil(x, out=out)


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
def subtract(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Difference."""
    return current_backend(x1, x2).subtract(x1, x2, out=out)


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
def divide(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """True division."""
    return current_backend(x1, x2).divide(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def maximum(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Elementwise maximum."""
    return current_backend(x1, x2).maximum(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def minimum(x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """Elementwise minimum."""
    return current_backend(x1, x2).minimum(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def round(x: Operand, /, *, decimals: int = 0, out: Optional[Array] = None) -> Array:
    """Round half to even, to ``decimals`` places."""
    return current_backend(x).round(x, decimals=decimals, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def clip(
    x: Operand,
    x_min: Operand | None = None,
    x_max: Operand | None = None,
    /,
    *,
    out: Optional[Array] = None,
) -> Array:
    """Limit values to ``[x_min, x_max]`` (either bound may be omitted)."""
    return current_backend(x).clip(x, x_min, x_max, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def where(condition: Operand, x1: Operand, x2: Operand, /, *, out: Optional[Array] = None) -> Array:
    """``x1`` where ``condition`` holds, else ``x2``."""
    return current_backend(x1, x2).where(condition, x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def remainder(
    x1: Operand, x2: Operand, /, *, modulus: bool = True, out: Optional[Array] = None
) -> Array:
    """Remainder of division: sign of the divisor (``modulus=True``) or of the dividend."""
    return current_backend(x1, x2).remainder(x1, x2, modulus=modulus, out=out)
