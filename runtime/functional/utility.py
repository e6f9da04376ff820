"""Utility functions: truth tests reducing to bool."""

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

Axis = int | tuple[int, ...] | None


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def all(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Whether every element along ``axis`` is true (non-zero; NaN is true)."""
    return current_backend(x).all(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def any(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Whether some element along ``axis`` is true (non-zero; NaN is true)."""
    return current_backend(x).any(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def diff(
    x: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Array | NativeArray | None = None,
    append: Array | NativeArray | None = None,
    out: Optional[Array] = None,
) -> Array:
    """The ``n``-th forward difference along ``axis`` (2024.12), ``prepend``/``append``
    joined to ``x`` along ``axis`` first."""
    return current_backend(x).diff(x, axis=axis, n=n, prepend=prepend, append=append, out=out)
