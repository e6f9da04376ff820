"""Creation functions. ``infer_dtype`` gives one default on every backend: float32 for
shape-only creation. ``arange`` and ``full`` take theirs from *every* value, keyword ones too
(``arange(0, step=1.0)`` is float32), by :func:`default_dtype`, which their backends call."""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.dtypes import default_dtype  # noqa: F401  (the policy, re-exported)
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
@infer_device
def full(
    shape: Shape,
    fill_value: float,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Array filled with ``fill_value`` (by default of :func:`default_dtype` of it)."""
    return current_backend().full(shape, fill_value, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
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
    """Evenly spaced values in ``[start, stop)`` (by default of :func:`default_dtype`)."""
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


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@infer_dtype
@infer_device
def empty_like(
    x: Array | NativeArray,
    /,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Uninitialised array with the shape (and by default the dtype) of ``x``."""
    return current_backend(x).empty_like(x, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@infer_dtype
@infer_device
def full_like(
    x: Array | NativeArray,
    /,
    fill_value: complex,
    *,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """``fill_value`` with the shape (and by default the dtype) of ``x``."""
    return current_backend(x).full_like(x, fill_value, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_dtype
@infer_device
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: DtypeLike = None,
    device: str | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Ones on the ``k``-th diagonal, zeros elsewhere."""
    return current_backend().eye(n_rows, n_cols, k=k, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
def from_dlpack(
    x: object,
    /,
    *,
    device: str | None = None,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """An array of the backend in use from any object with ``__dlpack__``; ``copy=True``
    gives memory of its own, otherwise it is shared where the protocol allows."""
    return current_backend().from_dlpack(x, copy=copy, out=out)


@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
@handle_array_function
def meshgrid(*arrays: Array | NativeArray, indexing: str = "xy") -> Sequence[Array]:
    """Coordinate matrices from 1-d coordinate vectors (``"xy"``: Cartesian, ``"ij"``:
    matrix indexing); each output has memory of its own. A tuple (a list before 2025.12)."""
    return current_backend(*arrays).meshgrid(*arrays, indexing=indexing)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def tril(x: Array | NativeArray, /, *, k: int = 0, out: Optional[Array] = None) -> Array:
    """The lower triangle (at and below the ``k``-th diagonal) of the last two axes."""
    return current_backend(x).tril(x, k=k, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def triu(x: Array | NativeArray, /, *, k: int = 0, out: Optional[Array] = None) -> Array:
    """The upper triangle (at and above the ``k``-th diagonal) of the last two axes."""
    return current_backend(x).triu(x, k=k, out=out)
