"""Indexing functions."""

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
def take(
    x: Array | NativeArray,
    indices: Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Elements of ``x`` at the integer ``indices`` along ``axis`` (a copy; ``axis`` may be
    left out for 1-d ``x`` only)."""
    return current_backend(x).take(x, indices, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def take_along_axis(
    x: Array | NativeArray,
    indices: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    out: Optional[Array] = None,
) -> Array:
    """Elements of ``x`` at ``indices`` along ``axis``, the other axes matched (2024.12;
    negative indices count from the end)."""
    return current_backend(x).take_along_axis(x, indices, axis=axis, out=out)
