"""Searching functions. Indices are int64 (the default integer) on every backend."""

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


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def argmax(
    x: Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Index of the first maximum along ``axis`` (of the flattened ``x`` for ``None``)."""
    return current_backend(x).argmax(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def argmin(
    x: Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Index of the first minimum along ``axis`` (of the flattened ``x`` for ``None``)."""
    return current_backend(x).argmin(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@to_native_arrays_and_back
@handle_array_function
def nonzero(x: Array | NativeArray, /) -> tuple[Array, ...]:
    """Indices of the non-zero elements, one int64 array per axis (0-d input raises, as the
    standard allows and NumPy 2 does)."""
    return current_backend(x).nonzero(x)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def searchsorted(
    x1: Array | NativeArray,
    x2: Array | NativeArray,
    /,
    *,
    side: str = "left",
    sorter: Array | NativeArray | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Where the elements of ``x2`` go into the sorted 1-d ``x1`` to keep it sorted."""
    return current_backend(x1, x2).searchsorted(x1, x2, side=side, sorter=sorter, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def count_nonzero(
    x: Array | NativeArray,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """How many elements along ``axis`` are not zero (2024.12), in the default index dtype."""
    return current_backend(x).count_nonzero(x, axis=axis, keepdims=keepdims, out=out)
