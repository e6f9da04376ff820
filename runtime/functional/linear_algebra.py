"""Linear algebra of the main namespace (``matmul``, ``matrix_transpose`` -- a view --,
``tensordot``, ``vecdot``) and ``cholesky``. Mixed dtypes promote as the standard says."""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_view,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def matmul(
    x1: Array | NativeArray, x2: Array | NativeArray, /, *, out: Optional[Array] = None
) -> Array:
    """Matrix product (batched)."""
    return current_backend(x1, x2).matmul(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def matrix_transpose(
    x: Array | NativeArray, /, *, copy: Optional[bool] = None, out: Optional[Array] = None
) -> Array:
    """Swap the last two axes (a view, like ``x.mT`` in NumPy)."""
    return current_backend(x).matrix_transpose(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cholesky(
    x: Array | NativeArray, /, *, upper: bool = False, out: Optional[Array] = None
) -> Array:
    """Cholesky factor: lower triangular, or upper with ``upper=True``."""
    return current_backend(x).cholesky(x, upper=upper, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def tensordot(
    x1: Array | NativeArray,
    x2: Array | NativeArray,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
    out: Optional[Array] = None,
) -> Array:
    """Sum of products over the last ``axes`` axes of ``x1`` and the first of ``x2`` (or
    over the two given axis lists); operands promoted as the standard says."""
    return current_backend(x1, x2).tensordot(x1, x2, axes=axes, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def vecdot(
    x1: Array | NativeArray,
    x2: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    out: Optional[Array] = None,
) -> Array:
    """Dot product of vectors along ``axis`` (broadcasting the others); ``x1`` is
    conjugated, as the standard says for complex vectors."""
    return current_backend(x1, x2).vecdot(x1, x2, axis=axis, out=out)
