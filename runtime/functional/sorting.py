"""Sorting functions: stable by default, ``descending`` keeps equal elements in order."""

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
def argsort(
    x: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Optional[Array] = None,
) -> Array:
    """Indices (int64) that sort ``x`` along ``axis``."""
    return current_backend(x).argsort(x, axis=axis, descending=descending, stable=stable, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sort(
    x: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Optional[Array] = None,
) -> Array:
    """``x`` sorted along ``axis`` (NaNs last, as in NumPy)."""
    return current_backend(x).sort(x, axis=axis, descending=descending, stable=stable, out=out)
