"""Array creation from data, conversion, indexing and ``inplace_update``.

``inplace_update`` is the one place where writing happens; everything that writes (``out``,
in-place operators, item assignment, tracked views) ends here, so the checks -- shape
broadcastable to the target, ``same_kind`` cast -- run before any byte is written on every
backend, and the backend difference is a single question: can this native array be written
(``primitives.writable``)? If not, the ``Array`` is rebound, unless ``ensure_in_backend``.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Any, Optional

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime import views
from ivycheck.runtime.array import Array, TrackedView
from ivycheck.runtime.backend_handler import current_backend, prims
from ivycheck.runtime.container import Container
from ivycheck.runtime.dtypes import (
    DEFAULT_COMPLEX,
    DEFAULT_FLOAT,
    SCALAR_TYPES,
    Dtype,
    as_dtype,
    can_write,
)
from ivycheck.runtime.exceptions import InplaceUpdateException, IvyTypeError, IvyValueError
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_exceptions,
    handle_out_argument,
    handle_view_indexing,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray


def _unwrap_nested(obj: Any) -> Any:
    if isinstance(obj, Array):
        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return [_unwrap_nested(o) for o in obj]
    return obj


@handle_exceptions
def asarray(
    obj: Any,
    /,
    *,
    copy: Optional[bool] = None,
    dtype: Dtype | str | None = None,
    device: str | None = None,
) -> Array:
    """Array from an array, a native array or Python data.

    Python floats default to float32 on every backend (NumPy alone would pick float64, JAX
    float32, so the backends would disagree). ``copy=True`` always gives memory of its own.
    """
    p = prims()
    if isinstance(obj, Array):
        if not copy and (dtype is None or as_dtype(dtype) == obj.dtype):
            return obj
        obj = obj._data
    if not isinstance(obj, p.NATIVE_TYPES) and not hasattr(obj, "__array__"):
        # Python data goes through NumPy, with the requested dtype so that values only that
        # dtype holds (``2**63 + 5`` in uint64) are not first squeezed through another.
        wanted = None if dtype is None else np.dtype(str(as_dtype(dtype)))
        data = np.asarray(_unwrap_nested(obj), dtype=wanted)
        if dtype is None and not _has_numpy(obj):
            dtype = _PYTHON_DEFAULTS.get(data.dtype.kind)
        # NumPy's ``ulonglong`` is ``uint64`` under another type code, which PyTorch refuses.
        obj = data.view(np.dtype(data.dtype.name)) if data.dtype.kind in "iu" else data
    return Array(p.asarray(obj, None if dtype is None else as_dtype(dtype), copy))


_PYTHON_DEFAULTS = {"f": DEFAULT_FLOAT, "c": DEFAULT_COMPLEX}
"""Python floats and complex numbers take the runtime's defaults, not NumPy's 64-bit ones."""


def _has_numpy(obj: Any) -> bool:
    if isinstance(obj, (np.ndarray, np.generic, Array)):
        return True
    return isinstance(obj, (list, tuple)) and any(_has_numpy(o) for o in obj)


array = asarray


def to_native(x: Any, /) -> Any:
    """The native array inside an ``Array`` (anything else is returned unchanged)."""
    return x._data if isinstance(x, Array) else x


def to_numpy(x: Any, /) -> np.ndarray:
    """A NumPy copy of an array (writing to it never changes ``x``)."""
    return prims().to_numpy(to_native(x))


def is_ivy_array(x: Any, /) -> bool:
    """``x`` is an ``ivy.Array``."""
    return isinstance(x, Array)


def is_native_array(x: Any, /) -> bool:
    """``x`` is a native array of the backend in use."""
    return isinstance(x, prims().NATIVE_TYPES)


def is_array(x: Any, /) -> bool:
    """``x`` is an ``ivy.Array`` or a native array of the backend in use."""
    return is_ivy_array(x) or is_native_array(x)


def _target(x: Any) -> tuple[tuple[int, ...], str]:
    """Shape and dtype of an update target, without materialising a tracked view."""
    p = prims()
    if isinstance(x, TrackedView):
        assert x._geometry is not None
        return x._geometry.shape, p.dtype_name(x._root._data)
    native = x._data if isinstance(x, Array) else x
    if not isinstance(native, p.NATIVE_TYPES):
        raise IvyTypeError(f"inplace_update: x must be an array, got {type(x).__qualname__}")
    return p.shape(native), p.dtype_name(native)


def _value(val: Any, dtype: str) -> tuple[Any, tuple[int, ...], object]:
    """Native value, its shape and its dtype (a Python scalar stays weak for the cast check)."""
    p = prims()
    if isinstance(val, SCALAR_TYPES):
        return p.asarray(val, dtype if can_write(val, dtype) else None, None), (), val
    if not isinstance(val, (Array, *p.NATIVE_TYPES)):
        val = asarray(val)
    native = val._data if isinstance(val, Array) else val
    return native, p.shape(native), p.dtype_name(native)


@handle_exceptions
def inplace_update(
    x: Array | NativeArray | Container,
    val: Any,
    /,
    *,
    ensure_in_backend: bool = False,
    keep_input_dtype: bool = False,
) -> Any:
    """Write ``val`` into ``x`` and return ``x``.

    ``x`` keeps its shape and dtype: ``val`` must broadcast to ``x``'s shape and be castable
    under ``same_kind`` (``keep_input_dtype=True`` casts unconditionally), else
    :class:`InplaceUpdateException` is raised before anything is written. NumPy, PyTorch and
    ``tf.Variable`` are written natively; a JAX array or ``tf.Tensor`` is rebound inside its
    ``Array`` -- or, with ``ensure_in_backend=True``, refused. A tracked view scatters into its
    root, so the root and every other view see the change. A container is updated leaf by
    leaf and returned itself.
    """
    if isinstance(x, Container):
        # Every leaf is checked before any is written: no half-updated container.
        _check_update(x, val, ensure_in_backend, keep_input_dtype)
        for key in x:
            sub = val[key] if isinstance(val, Container) else val
            ivy.inplace_update(
                x[key], sub, ensure_in_backend=ensure_in_backend, keep_input_dtype=keep_input_dtype
            )
        return x
    native, shape, dtype = _check_update(x, val, ensure_in_backend, keep_input_dtype)
    p = prims()
    if p.dtype_name(native) != dtype:
        native = p.cast(native, dtype)
    if isinstance(x, TrackedView):
        if ensure_in_backend and not p.writable(x._root._data):
            raise InplaceUpdateException(
                f"inplace_update: {p.NAME} cannot update this view's base natively "
                "(ensure_in_backend=True)"
            )
        x._write(p.broadcast_to(native, shape))
        return x
    target = x._data if isinstance(x, Array) else x
    if p.writable(target):
        p.write(target, native)
        return x
    if ensure_in_backend or not isinstance(x, Array):
        raise InplaceUpdateException(
            f"inplace_update: a {p.NAME} {type(target).__qualname__} cannot be updated in place "
            + ("(ensure_in_backend=True)" if isinstance(x, Array) else "; wrap it in ivy.Array")
        )
    x._data = p.broadcast_to(native, shape)
    return x


def _check_update(x: Any, val: Any, ensure_in_backend: bool, keep_input_dtype: bool) -> Any:
    """Raise if ``val`` cannot be written into ``x``; write nothing.

    For an array: ``(native value, shape, dtype)``; for a container, every leaf is checked.
    """
    if isinstance(x, Container):
        for key in x:
            if isinstance(val, Container) and key not in val:
                raise InplaceUpdateException(f"inplace_update: the value has no leaf {key!r}")
            sub = val[key] if isinstance(val, Container) else val
            _check_update(x[key], sub, ensure_in_backend, keep_input_dtype)
        return None
    shape, dtype = _target(x)
    native, vshape, vdtype = _value(val, dtype)
    if not _broadcastable(vshape, shape) or np.broadcast_shapes(vshape, shape) != shape:
        raise InplaceUpdateException(
            f"inplace_update: a value of shape {vshape} cannot be written into shape {shape}"
        )
    if not keep_input_dtype and not can_write(vdtype, dtype):
        raise InplaceUpdateException(
            f"inplace_update: cannot write {vdtype} into {dtype} under same_kind casting "
            "(pass keep_input_dtype=True to cast anyway)"
        )
    p = prims()
    root = x._root._data if isinstance(x, TrackedView) else (x._data if isinstance(x, Array) else x)
    if ensure_in_backend and not p.writable(root):
        raise InplaceUpdateException(
            f"inplace_update: {p.NAME} cannot update this array natively (ensure_in_backend=True)"
        )
    return native, shape, dtype


def _broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


@handle_exceptions
@handle_view_indexing
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def get_item(
    x: Array | NativeArray,
    /,
    query: Any,
    *,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """``x[query]``: basic indexing makes a view, advanced indexing a copy, as in NumPy."""
    return current_backend(x).get_item(x, query, out=out)


def _is_basic(query: Any) -> bool:
    items = query if isinstance(query, tuple) else (query,)
    return all(
        i is None or i is Ellipsis or isinstance(i, slice) or (type(i) is int) for i in items
    )


def _has_negative_step(query: Any) -> bool:
    items = query if isinstance(query, tuple) else (query,)
    return any(isinstance(i, slice) and i.step is not None and i.step < 0 for i in items)


def _is_integer(item: Any) -> bool:
    """An integer index (not a bool, which NumPy reads as a mask)."""
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


@handle_exceptions
def set_item(x: Array, query: Any, val: Any, /, *, copy: Optional[bool] = False) -> Array:
    """``x[query] = val`` in place (through views, on every backend); returns ``x``.

    Values are cast to ``x``'s dtype and broadcast to the selected region as NumPy's item
    assignment does -- leading length-1 axes of the value beyond the region's rank are
    dropped (``v[0, ...] = ones((1, 1))`` into a region of shape ``()``) -- and a value that
    does not fit raises before anything is written. An integer for every axis selects one
    element, which takes a scalar or a 0-d array only: ``v[0,] = ones((1,))`` raises
    ``IvyValueError`` as NumPy does ("setting an array element with a sequence").
    ``copy=True`` updates and returns a copy.
    """
    if copy:
        x = ivy.copy_array(x)
    p = prims()
    items = query if isinstance(query, tuple) else (query,)
    shape, dtype = _target(x)
    region = np.empty(shape, dtype=np.uint8)[ivy.func_wrapper._to_numpy(items)]
    native, vshape, _ = _value(val, dtype)
    if vshape and items and len(items) == len(shape) and all(map(_is_integer, items)):
        raise IvyValueError(
            f"set_item: setting an array element with a sequence: an integer index for every "
            f"axis selects one element, and the value has shape {vshape}"
        )
    kept = vshape
    while len(kept) > region.ndim and kept[0] == 1:
        kept = kept[1:]
    if not _broadcastable(kept, region.shape) or np.broadcast_shapes(kept, region.shape) != (
        region.shape
    ):
        raise InplaceUpdateException(
            f"set_item: a value of shape {vshape} cannot be written into a region of shape "
            f"{region.shape}"
        )
    if region.size == 0:
        return x  # nothing selected (an all-False mask): nothing to write
    native = p.cast(native, dtype)
    if not shape:  # a 0-d target selected by True masks: its only element, written whole
        items, kept, vshape = (Ellipsis,), (), ()
        if p.shape(native):
            native = native[(0,) * len(p.shape(native))]
    if kept != vshape:
        native = native[(0,) * (len(vshape) - len(kept))]  # drop the leading unit axes
    if (
        type(x) is Array
        and p.writable(x._data)
        and (p.NEGATIVE_STEPS or not _has_negative_step(items))
    ):
        p.set_region(x._data, ivy.func_wrapper._to_native(items), native)
        return x
    if _is_basic(items):
        # ``...`` keeps a full integer index a 0-d view (NumPy returns a scalar copy).
        view = get_item(x, items if Ellipsis in items else (*items, Ellipsis))
        ivy.inplace_update(view, native, keep_input_dtype=True)
        return x
    root, geometry = x._view_source()
    positions = views.flat_positions(geometry, root._view_source()[1])
    selected = positions[ivy.func_wrapper._to_numpy(items)]
    index = tuple(np.unravel_index(selected, root.shape))
    new = p.set_region(root._data, index, p.broadcast_to(native, selected.shape))
    if new is not root._data:
        root._data = new
    return x
