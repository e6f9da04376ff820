"""Reductions. ``out`` is forwarded natively on NumPy and PyTorch (checked first: NumPy
reductions would otherwise cast unsafely into ``out``). ``sum``, ``prod`` and
``cumulative_sum`` accumulate integers in the widest integer of their signedness
(:func:`accumulation_dtype`), as the standard and NumPy do; backends that do otherwise ask."""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.dtypes import accumulation_dtype  # noqa: F401  (the policy, re-exported)
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray

Axis = int | Sequence[int] | None


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def sum(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    dtype: str | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Sum over ``axis`` (all axes by default)."""
    return current_backend(x).sum(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def mean(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    dtype: str | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Arithmetic mean over ``axis``."""
    return current_backend(x).mean(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def prod(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    dtype: str | None = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Product over ``axis``."""
    return current_backend(x).prod(x, axis=axis, dtype=dtype, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def max(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Maximum over ``axis``."""
    return current_backend(x).max(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def min(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Minimum over ``axis``."""
    return current_backend(x).min(x, axis=axis, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def std(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Standard deviation over ``axis`` with ``correction`` degrees of freedom removed."""
    return current_backend(x).std(x, axis=axis, correction=correction, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def var(
    x: Array | NativeArray,
    /,
    *,
    axis: Axis = None,
    correction: float = 0.0,
    keepdims: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Variance over ``axis`` with ``correction`` degrees of freedom removed."""
    return current_backend(x).var(x, axis=axis, correction=correction, keepdims=keepdims, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cumulative_sum(
    x: Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    dtype: str | None = None,
    include_initial: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Running sum along ``axis`` (required unless ``x`` is 1-d); ``include_initial``
    prepends the zero of the empty sum."""
    return current_backend(x).cumulative_sum(
        x, axis=axis, dtype=dtype, include_initial=include_initial, out=out
    )


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cumulative_prod(
    x: Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    dtype: str | None = None,
    include_initial: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Running product along ``axis`` (required unless ``x`` is 1-d; 2024.12);
    ``include_initial`` prepends the one of the empty product."""
    return current_backend(x).cumulative_prod(
        x, axis=axis, dtype=dtype, include_initial=include_initial, out=out
    )
