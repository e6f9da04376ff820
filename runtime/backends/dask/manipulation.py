"""Dask manipulation, indexing and linear-algebra functions that the NumPy backend's cannot
serve lazily as they are.

(The others -- ``permute_dims``, ``flip`` ... -- are the NumPy backend's, which NumPy hands to
Dask: ``numpy_functions``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np

from ivycheck.runtime.backends._common.indexing import flat_positions, plain_query
from ivycheck.runtime.backends._common.promote import promote
from ivycheck.runtime.backends.dask import elementwise, primitives
from ivycheck.runtime.backends.dask.lifted import dispatched, in_one_process
from ivycheck.runtime.backends.numpy import linear_algebra as _numpy_linear_algebra
from ivycheck.runtime.backends.numpy import manipulation as _numpy

Arr = Any

_BASIC = (int, slice, type(None), type(Ellipsis))


def get_item(x: Arr, /, query: Any, *, out: Arr | None = None) -> Arr:
    """Ints, slices (any step), ``None`` and ``...`` index lazily (Dask's own indexing).
    Integer arrays and masks select the positions NumPy's indexing selects
    (``_common.indexing.flat_positions``; a Dask mask is computed first, as its result's
    shape depends on it), gathered from the raveled array: NumPy's semantics in every
    combination Dask's own fancy indexing lacks."""
    query = plain_query(query)
    items = query if isinstance(query, tuple) else (query,)
    if all(isinstance(i, _BASIC) for i in items):
        return x[query]
    items = tuple(primitives.to_numpy(i) if isinstance(i, da.Array) else i for i in items)
    positions = flat_positions(tuple(x.shape), items)
    return x.reshape(-1)[positions.reshape(-1)].reshape(positions.shape)


_reshape_in_one_process = in_one_process(_numpy.reshape, __name__)


def reshape(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    """Dask's reshape, through the raveled array where Dask's cannot map the chunks as
    they are (it merges and splits whole chunks only); an empty array in one process
    (Dask's fails on zero-size chunks)."""
    if 0 in x.shape:
        return _reshape_in_one_process(x, shape)
    try:
        return x.reshape(tuple(shape))
    except NotImplementedError:
        return x.reshape(-1).reshape(tuple(shape))


def expand_dims(x: Arr, /, axis: Any = 0, *, out: Arr | None = None) -> Arr:
    """Dask's reshape to the shape NumPy's ``expand_dims`` gives a stand-in of ``x``'s shape
    that holds no memory -- NumPy's checks too: a repeated axis raises ``ValueError`` (Dask's
    own raised ``StopIteration``)."""
    stand_in = np.broadcast_to(np.empty((), np.uint8), x.shape)
    return x.reshape(np.expand_dims(stand_in, axis).shape)


def _joined(join: Any, arrays: Sequence[Arr], axis: int | None) -> Arr:
    arrays = promote(primitives, *arrays)
    if axis is None:
        return join([a.reshape(-1) for a in arrays], axis=0)
    return join(arrays, axis=axis)


def concat(arrays: Sequence[Arr], /, *, axis: int | None = 0, out: Arr | None = None) -> Arr:
    return _joined(da.concatenate, arrays, axis)


def stack(arrays: Sequence[Arr], /, *, axis: int = 0, out: Arr | None = None) -> Arr:
    return _joined(da.stack, arrays, axis)


_repeat_in_one_process = in_one_process(_numpy.repeat, __name__)


def repeat(x: Arr, repeats: Any, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    """A Python ``int`` repeats lazily (Dask's); repeats per element make a result whose
    shape depends on their values, computed in one process."""
    if not isinstance(repeats, int) or repeats == 0 or 0 in x.shape:  # (Dask's fails on these)
        return _repeat_in_one_process(x, repeats, axis=axis)
    if axis is None:
        x, axis = x.reshape(-1), 0
    return da.repeat(x, repeats, axis=axis)


def take(x: Arr, indices: Arr, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    if axis is None:
        x, axis = x.reshape(-1), 0
    return da.take(x, indices, axis=axis)


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    """Lazy; ``copy=False`` with the same dtype gives ``x`` itself."""
    native = primitives.target_dtype(dtype)
    if not copy and x.dtype == native:
        return x
    return x.astype(native)


def isin(x1: Arr, x2: Arr, /, *, invert: bool = False, out: Arr | None = None) -> Arr:
    return da.isin(x1, x2, invert=invert)


def outer(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """The NumPy backend's ``multiply`` of the two, promoted, as a column and a row."""
    x1, x2 = promote(primitives, x1, x2)
    return elementwise.multiply(x1[:, None], x2[None, :])  # type: ignore[attr-defined]


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    """``sum(conj(x1) * x2, axis)`` in the promoted dtype (the standard's definition, and
    ``np.vecdot``'s dtype: no accumulation dtype), as Dask's chunks allow."""
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"the contracted axis has {x1.shape[axis]} and {x2.shape[axis]} elements")
    x1, x2 = promote(primitives, x1, x2)
    if x1.dtype.kind == "c":
        x1 = elementwise.conj(x1)  # type: ignore[attr-defined]
    product = elementwise.multiply(x1, x2)  # type: ignore[attr-defined]
    return da.sum(product, axis=axis, dtype=product.dtype)


_matmul_handed_to_dask = dispatched(_numpy_linear_algebra.matmul, __name__)


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """The NumPy backend's, handed to Dask; the contracted sizes checked first, as NumPy
    checks them (Dask would only fail when computing)."""
    if not x1.ndim or not x2.ndim:
        raise ValueError("a 0-d operand (the standard allows 1-d and more)")
    inner = x2.shape[-2] if x2.ndim > 1 else x2.shape[0]
    if x1.shape[-1] != inner:
        raise ValueError(
            f"shapes {x1.shape} and {x2.shape}: contracted sizes {x1.shape[-1]} and {inner} differ"
        )
    return _matmul_handed_to_dask(x1, x2)


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    """In the promoted dtype, as ``np.tensordot`` (Dask's sums integers in int64)."""
    x1, x2 = promote(primitives, x1, x2)
    return da.tensordot(x1, x2, axes=axes).astype(x1.dtype)


def diff(x: Arr, /, *, axis: int = -1, n: int = 1, **options: Any) -> Arr:
    """``n`` times the NumPy backend's ``subtract`` (``not_equal`` for booleans, as
    ``np.diff``) of neighbours along ``axis``, ``prepend`` and ``append`` (``options``) joined first."""
    prepend, append = options.get("prepend"), options.get("append")
    axis = axis % x.ndim
    edge = (*x.shape[:axis], 1, *x.shape[axis + 1 :])
    parts = [
        p if p is x else primitives.broadcast_to(p, edge) if not getattr(p, "ndim", 0) else p
        for p in (prepend, x, append)
        if p is not None
    ]
    ret = _joined(da.concatenate, parts, axis) if len(parts) > 1 else x
    step = elementwise.not_equal if ret.dtype == bool else elementwise.subtract  # type: ignore[attr-defined]
    later = (slice(None),) * axis + (slice(1, None),)
    earlier = (slice(None),) * axis + (slice(None, -1),)
    for _ in range(n):
        ret = step(ret[later], ret[earlier])
    return ret


def trace(x: Arr, /, *, offset: int = 0, dtype: Any = None, out: Arr | None = None) -> Arr:
    """The sum of the diagonal, accumulated as ``sum`` (NumPy's ``trace``)."""
    return da.sum(da.diagonal(x, offset=offset, axis1=-2, axis2=-1), axis=-1, dtype=dtype)
