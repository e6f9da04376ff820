"""Array creation from data, conversion, indexing and ``inplace_update``.

``inplace_update`` is the public face of :mod:`ivycheck.runtime.inplace`, the one place where
writing happens (``out``, in-place operators, item assignment and tracked views write there
too, without dispatching through this function).
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ivycheck.runtime import dtypes as _dtypes
from ivycheck.runtime import inplace, views
from ivycheck.runtime.array import Array, rebind
from ivycheck.runtime.backend_state import current_backend, prims
from ivycheck.runtime.container import Container
from ivycheck.runtime.dispatch.convert import to_native_args, to_numpy_args
from ivycheck.runtime.dtypes import (
    Dtype,
    as_dtype,
)
from ivycheck.runtime.exceptions import InplaceUpdateException, IvyTypeError, IvyValueError
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_exceptions,
    handle_out_argument,
    handle_view_indexing,
    to_native_arrays_and_back,
)
from ivycheck.runtime.functional.creation import copy_array
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

    Python floats default to the default float dtype (float32 unless
    ``set_default_float_dtype`` chose float64) on every backend (NumPy alone would pick
    float64, JAX float32, so the backends would disagree). ``copy=True`` always gives memory of its own.
    """
    p = prims()
    if isinstance(obj, Array):
        if not copy and (dtype is None or as_dtype(dtype) == obj.dtype):
            return obj
        obj = obj._data
    if copy is False and dtype is not None:
        _refuse_conversion(p, obj, as_dtype(dtype))
    if copy is False and isinstance(obj, _PYTHON_DATA):
        # One error on every backend (NumPy's "Unable to avoid copy", PyTorch's "can't
        # alias tensor with dtype 'Double' into dtype 'Float'"; JAX and TensorFlow copied).
        what = f"NumPy {type(obj).__name__} scalar" if isinstance(obj, np.generic) else None
        raise IvyValueError(
            f"asarray: copy=False, but a {what or type(obj).__qualname__} becomes an array "
            "only by a copy"
        )
    if not isinstance(obj, p.NATIVE_TYPES) and not hasattr(obj, "__array__"):
        # Python data goes through NumPy, with the requested dtype so that values only that
        # dtype holds (``2**63 + 5`` in uint64) are not first squeezed through another.
        wanted = None if dtype is None else np.dtype(str(as_dtype(dtype)))
        data = np.asarray(_unwrap_nested(obj), dtype=wanted)
        if dtype is None and not _has_numpy(obj):
            dtype = _python_default(data.dtype.kind)
        # NumPy's ``ulonglong`` is ``uint64`` under another type code, which PyTorch refuses.
        obj = data.view(np.dtype(data.dtype.name)) if data.dtype.kind in "iu" else data
    if isinstance(obj, np.ndarray) and obj.dtype.kind not in _NUMERIC_KINDS:
        raise IvyTypeError(
            f"asarray: no array of {obj.dtype} values ({obj.dtype.kind!r}: strings, objects "
            "or dates); the standard's dtypes are bool, integers, floats and complex numbers"
        )
    return Array(p.asarray(obj, None if dtype is None else as_dtype(dtype), copy))


_PYTHON_DATA = (list, tuple, bool, int, float, complex, np.generic)
"""What ``asarray`` turns into an array only by a copy: Python values and sequences, and
NumPy scalars (which own no array memory to share)."""

_NUMERIC_KINDS = frozenset("biufc")
"""NumPy dtype kinds of the standard's dtypes (bool, signed, unsigned, float, complex)."""


def _refuse_conversion(p: Any, obj: Any, dtype: Dtype) -> None:
    """``copy=False`` with a ``dtype`` an array does not have: the conversion is a copy, which
    the standard (and array-api-strict) refuses with ``ValueError`` on every backend (JAX and
    TensorFlow converted silently)."""
    if isinstance(obj, p.NATIVE_TYPES):
        current = p.dtype_name(obj)
    elif isinstance(obj, np.ndarray):
        current = obj.dtype.name
    else:
        return
    if current != dtype:
        raise IvyValueError(
            f"asarray: copy=False, but an array of {current} becomes {dtype} only by a copy"
        )


def _python_default(kind: str) -> Dtype | None:
    """Python floats and complex numbers take the runtime's defaults in use (float32 and
    complex64 unless ``set_default_float_dtype`` chose 64 bits), not NumPy's 64-bit ones."""
    if kind == "f":
        return _dtypes.DEFAULT_FLOAT
    return _dtypes.DEFAULT_COMPLEX if kind == "c" else None


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
    return inplace.update(x, val, ensure_in_backend, keep_input_dtype)


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
        x = copy_array(x)
    p = prims()
    items = query if isinstance(query, tuple) else (query,)
    shape, dtype = inplace.target(x)
    region = np.empty(shape, dtype=np.uint8)[to_numpy_args(items)]
    native, vshape, _ = inplace.value(val, dtype)
    if vshape and items and len(items) == len(shape) and all(map(_is_integer, items)):
        raise IvyValueError(
            f"set_item: setting an array element with a sequence: an integer index for every "
            f"axis selects one element, and the value has shape {vshape}"
        )
    kept = vshape
    while len(kept) > region.ndim and kept[0] == 1:
        kept = kept[1:]
    if not inplace.broadcastable(kept, region.shape) or np.broadcast_shapes(kept, region.shape) != (
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
        p.set_region(x._data, to_native_args(items), native)
        return x
    if _is_basic(items):
        # ``...`` keeps a full integer index a 0-d view (NumPy returns a scalar copy).
        view = get_item(x, items if Ellipsis in items else (*items, Ellipsis))
        inplace.update(view, native, keep_input_dtype=True)
        return x
    root, geometry = x._view_source()
    positions = views.flat_positions(geometry, root._view_source()[1])
    selected = positions[to_numpy_args(items)]
    index = tuple(np.unravel_index(selected, root.shape))
    with views.root_lock(root):  # no other thread's write between the read and the rebind
        src = root._data
        new = p.set_region(src, index, p.broadcast_to(native, selected.shape))
        if new is not src:
            rebind(root, new)
    return x
