"""Set functions. Results are named tuples of arrays, as the standard names their fields;
``inverse_indices`` has the shape of ``x``; every NaN is a distinct value (NumPy's
``equal_nan=False``), on every backend.

The tuple-returning ones take ivy arrays and build their named tuple themselves: the
built wrapper converts plain tuples and lists of native results, not named tuples.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Any, NamedTuple, Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    inputs_to_ivy_arrays,
    to_native_arrays_and_back,
)
from ivycheck.runtime.functional.general import asarray
from ivycheck.runtime.native import NativeArray


def _arrays(natives: tuple[Any, ...]) -> list[Array]:
    return [Array(n) for n in natives]


class UniqueAllResult(NamedTuple):
    """``unique_all``: the values, their first indices, the inverse and the counts."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """``unique_counts``: the values and how often each occurs."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``: the values and, per element of ``x``, its value's index."""

    values: Array
    inverse_indices: Array


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def unique_all(x: Array | NativeArray, /) -> UniqueAllResult:
    """Sorted unique values with first indices, inverse indices and counts (int64)."""
    return UniqueAllResult(*_arrays(current_backend(x).unique_all(asarray(x).data)))


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def unique_counts(x: Array | NativeArray, /) -> UniqueCountsResult:
    """Sorted unique values and their counts (int64)."""
    return UniqueCountsResult(*_arrays(current_backend(x).unique_counts(asarray(x).data)))


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def unique_inverse(x: Array | NativeArray, /) -> UniqueInverseResult:
    """Sorted unique values and the inverse indices (int64, of ``x``'s shape)."""
    return UniqueInverseResult(*_arrays(current_backend(x).unique_inverse(asarray(x).data)))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def unique_values(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Sorted unique values."""
    return current_backend(x).unique_values(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def isin(
    x1: Array | NativeArray | int | float,
    x2: Array | NativeArray | int | float,
    /,
    *,
    invert: bool = False,
    out: Optional[Array] = None,
) -> Array:
    """Whether each element of ``x1`` equals some element of ``x2`` (2025.12; NaN equals
    nothing), of ``x1``'s shape; ``invert`` negates."""
    return current_backend(x1, x2).isin(x1, x2, invert=invert, out=out)
