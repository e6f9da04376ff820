"""View functions: ``copy=`` and NumPy view semantics on every backend.

``@handle_view`` makes the result a view of ``x`` (natively where the backend can, tracked
otherwise); ``copy=True`` gives memory of its own; ``out`` wins over ``copy``.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

import numpy as np

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.exceptions import IvyValueError
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_view,
    inputs_to_ivy_arrays,
    to_native_arrays_and_back,
)
from ivycheck.runtime.functional.general import get_item
from ivycheck.runtime.info import as_sequence
from ivycheck.runtime.native import NativeArray

Axes = int | Sequence[int]
Arrays = Sequence[Array | NativeArray]


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def reshape(
    x: Array | NativeArray,
    /,
    shape: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """New shape; a view when NumPy would make one (a reshape that must copy copies)."""
    return current_backend(x).reshape(x, shape, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def permute_dims(
    x: Array | NativeArray,
    /,
    axes: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """Reorder the axes (a view)."""
    return current_backend(x).permute_dims(x, axes, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def swapaxes(
    x: Array | NativeArray,
    axis0: int,
    axis1: int,
    /,
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """Exchange two axes (a view)."""
    return current_backend(x).swapaxes(x, axis0, axis1, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def moveaxis(
    x: Array | NativeArray,
    source: Axes,
    destination: Axes,
    /,
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """Move axes to new positions (a view)."""
    return current_backend(x).moveaxis(x, source, destination, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def expand_dims(
    x: Array | NativeArray,
    /,
    axis: Axes = 0,
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """Insert length-one axes (a view). ``axis`` may be positional, as the standard says."""
    return current_backend(x).expand_dims(x, axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def squeeze(
    x: Array | NativeArray,
    /,
    axis: Axes | None = None,
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """Remove length-one axes (a view); an axis of another length raises. ``axis`` may be
    positional, as the standard says (``None``, every length-one axis, is Ivy's extension)."""
    return current_backend(x).squeeze(x, axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def flip(
    x: Array | NativeArray,
    /,
    *,
    copy: Optional[bool] = None,
    axis: Axes | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Reverse along ``axis`` (all axes by default). A view, even on PyTorch (tracked)."""
    return current_backend(x).flip(x, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def rot90(
    m: Array | NativeArray,
    /,
    *,
    copy: Optional[bool] = None,
    k: int = 1,
    axes: tuple[int, int] = (0, 1),
    out: Optional[Array] = None,
) -> Array:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``. A view, even on PyTorch."""
    return current_backend(m).rot90(m, k=k, axes=axes, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def flipud(
    m: Array | NativeArray, /, *, copy: Optional[bool] = None, out: Optional[Array] = None
) -> Array:
    """Reverse the first axis. A view, even on PyTorch."""
    return current_backend(m).flipud(m, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def fliplr(
    m: Array | NativeArray, /, *, copy: Optional[bool] = None, out: Optional[Array] = None
) -> Array:
    """Reverse the second axis. A view, even on PyTorch."""
    return current_backend(m).fliplr(m, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def broadcast_to(
    x: Array | NativeArray,
    /,
    shape: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """``x`` broadcast to ``shape``: a view whose repeated elements share memory, as in
    NumPy (read-only on NumPy, which refuses writes through it)."""
    return current_backend(x).broadcast_to(x, shape, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def broadcast_arrays(*arrays: Array | NativeArray) -> Sequence[Array]:
    """Every array broadcast to the common shape: views made by :func:`broadcast_to`, so
    no backend code of its own (a tuple; a list before 2025.12)."""
    shape = broadcast_shapes(*(tuple(a.shape) for a in arrays))
    return as_sequence(broadcast_to(a, shape) for a in arrays)


@handle_exceptions
def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape ``shapes`` broadcast to (2025.12): no array, so no backend; ``()`` for no
    shape; shapes that do not broadcast raise ``IvyValueError`` (a ``ValueError``)."""
    try:
        return tuple(int(n) for n in np.broadcast_shapes(*shapes))
    except ValueError as e:
        raise IvyValueError(f"broadcast_shapes: {e}") from None


@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def concat(arrays: Arrays, /, *, axis: int | None = 0, out: Optional[Array] = None) -> Array:
    """Join along ``axis`` (``None``: flatten first), promoting as the standard says."""
    return current_backend(*arrays).concat(arrays, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def stack(arrays: Arrays, /, *, axis: int = 0, out: Optional[Array] = None) -> Array:
    """Join along a new ``axis``, promoting as the standard says."""
    return current_backend(*arrays).stack(arrays, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def unstack(x: Array | NativeArray, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices along ``axis``, each a view of ``x`` (made by ``get_item``, so they are
    views on every backend, as NumPy's are)."""
    ndim = len(x.shape)
    if not -ndim <= axis < ndim:
        raise IvyValueError(f"unstack: axis {axis} is out of bounds for {ndim} dimensions")
    lead = (slice(None),) * (axis % ndim)
    return tuple(get_item(x, (*lead, i, Ellipsis)) for i in range(x.shape[axis]))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def repeat(
    x: Array | NativeArray,
    repeats: int | Array | NativeArray,
    /,
    *,
    axis: int | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Repeat each element ``repeats`` times along ``axis`` (``None``: of the flattened x)."""
    return current_backend(x).repeat(x, repeats, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def roll(
    x: Array | NativeArray,
    /,
    shift: int | Sequence[int],
    *,
    axis: Axes | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Shift elements along ``axis`` with wrap-around (``None``: of the flattened x)."""
    return current_backend(x).roll(x, shift, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def tile(
    x: Array | NativeArray, repetitions: Sequence[int], /, *, out: Optional[Array] = None
) -> Array:
    """``x`` repeated ``repetitions`` times per axis."""
    return current_backend(x).tile(x, repetitions, out=out)
