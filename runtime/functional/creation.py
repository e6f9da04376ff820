"""Creation functions. ``infer_dtype`` gives one default on every backend: float32 for
floats and for shape-only creation, int64 for integer ``arange``/``full``."""

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
    infer_device,
    infer_dtype,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray

Shape = int | Sequence[int]
DtypeLike = str | None


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def zeros(
    shape: Shape, *, dtype: DtypeLike = None, device: str | None = None, out: Optional[Array] = None
) -> Array:
    """Array of zeros."""
    return current_backend().zeros(shape, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def ones(
    shape: Shape, *, dtype: DtypeLike = None, device: str | None = None, out: Optional[Array] = None
) -> Array:
    """Array of ones."""
    return current_backend().ones(shape, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def empty(
    shape: Shape, *, dtype: DtypeLike = None, device: str | None = None, out: Optional[Array] = None
) -> Array:
    """Uninitialised array (zeros where the backend has no uninitialised memory)."""
    return current_backend().empty(shape, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def full(
    shape: Shape,
    fill_value: float,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Array filled with ``fill_value`` (int64 for an int, float32 for a float by default)."""
    return current_backend().full(shape, fill_value, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def arange(
    start: float,
    /,
    stop: float | None = None,
    step: float = 1,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)``."""
    return current_backend().arange(start, stop, step, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def linspace(
    start: float,
    stop: float,
    /,
    num: int,
    *,
    endpoint: bool = True,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    return current_backend().linspace(start, stop, num, endpoint=endpoint, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@infer_dtype
@infer_device
def zeros_like(
    x: Array | NativeArray,
    /,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Zeros with the shape (and by default the dtype) of ``x``."""
    return current_backend(x).zeros_like(x, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@infer_dtype
@infer_device
def ones_like(
    x: Array | NativeArray,
    /,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Ones with the shape (and by default the dtype) of ``x``."""
    return current_backend(x).ones_like(x, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def copy_array(
    x: Array | NativeArray, /, *, to_ivy_array: bool = True, out: Optional[Array] = None
) -> Array:
    """A copy with memory of its own (never a view, on any backend)."""
    return current_backend(x).copy_array(x, out=out)
