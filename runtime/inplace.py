"""Writing into an existing array: the one place where bytes are written.

Everything that writes -- ``out``, in-place operators, item assignment, tracked views,
``ivy.inplace_update`` -- ends in :func:`update`, so the checks (shape broadcastable to the
target, ``same_kind`` cast) run before any byte is written on every backend, and the backend
difference is a single question: can this native array be written
(``primitives.writable``)? If not, the ``Array`` is rebound, unless ``ensure_in_backend``.
It lies below the dispatcher, which writes a result into ``out`` here directly rather than
through the public ``ivy.inplace_update`` (which would dispatch a second time).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.array import Array, TrackedView, rebind
from ivycheck.runtime.backend_state import prims
from ivycheck.runtime.container import Container
from ivycheck.runtime.dispatch.registry import REGISTRY
from ivycheck.runtime.dtypes import SCALAR_TYPES, can_write
from ivycheck.runtime.exceptions import InplaceUpdateException, IvyTypeError


def update(
    x: Any, val: Any, ensure_in_backend: bool = False, keep_input_dtype: bool = False
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
        check_update(x, val, ensure_in_backend, keep_input_dtype)
        for key in x:
            sub = val[key] if isinstance(val, Container) else val
            update(x[key], sub, ensure_in_backend, keep_input_dtype)
        return x
    native, shape, dtype = check_update(x, val, ensure_in_backend, keep_input_dtype)
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
    rebind(x, p.broadcast_to(native, shape))
    return x


def check_update(x: Any, val: Any, ensure_in_backend: bool, keep_input_dtype: bool) -> Any:
    """Raise if ``val`` cannot be written into ``x``; write nothing.

    For an array: ``(native value, shape, dtype)``; for a container, every leaf is checked.
    """
    if isinstance(x, Container):
        for key in x:
            if isinstance(val, Container) and key not in val:
                raise InplaceUpdateException(f"inplace_update: the value has no leaf {key!r}")
            sub = val[key] if isinstance(val, Container) else val
            check_update(x[key], sub, ensure_in_backend, keep_input_dtype)
        return None
    shape, dtype = target(x)
    native, vshape, vdtype = value(val, dtype)
    if not broadcastable(vshape, shape) or np.broadcast_shapes(vshape, shape) != shape:
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


def broadcastable(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(a, b)
    except ValueError:
        return False
    return True


def target(x: Any) -> tuple[tuple[int, ...], str]:
    """Shape and dtype of an update target, without materialising a tracked view."""
    p = prims()
    if isinstance(x, TrackedView):
        assert x._geometry is not None
        return x._geometry.shape, p.dtype_name(x._root._data)
    native = x._data if isinstance(x, Array) else x
    if not isinstance(native, p.NATIVE_TYPES):
        raise IvyTypeError(f"inplace_update: x must be an array, got {type(x).__qualname__}")
    return p.shape(native), p.dtype_name(native)


def value(val: Any, dtype: str) -> tuple[Any, tuple[int, ...], object]:
    """Native value, its shape and its dtype (a Python scalar stays weak for the cast check)."""
    p = prims()
    if isinstance(val, SCALAR_TYPES):
        return p.asarray(val, dtype if can_write(val, dtype) else None, None), (), val
    if not isinstance(val, (Array, *p.NATIVE_TYPES)):
        val = REGISTRY["asarray"](val)  # Python data: the functional API's conversion
    native = val._data if isinstance(val, Array) else val
    return native, p.shape(native), p.dtype_name(native)
