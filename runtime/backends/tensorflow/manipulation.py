"""TensorFlow view functions: new tensors, tracked as views by the ``handle_view`` wrapper.
Axis bookkeeping that TensorFlow lacks (``moveaxis``, ``rot90``) follows NumPy's algorithm."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.backends._common.indexing import flat_positions, plain_query
from ivycheck.runtime.backends._common.sizes import check_size
from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.backends.tensorflow._promotion import promoted

Arr = Any


def _axes(axis: Any, ndim: int) -> list[int]:
    return list(normalize_axes(axis, ndim))


_STRIDED_RANK = 8
"""The most dimensions TensorFlow's StridedSlice kernel (basic indexing) handles."""


def reshape(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    return tf.reshape(x, list(shape))


def permute_dims(x: Arr, /, axes: Sequence[int], *, out: Arr | None = None) -> Arr:
    return tf.transpose(x, perm=list(axes))


def swapaxes(x: Arr, axis0: int, axis1: int, /, *, out: Arr | None = None) -> Arr:
    perm = list(range(x.shape.rank))
    a, b = axis0 % len(perm), axis1 % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    return tf.transpose(x, perm=perm)


def moveaxis(x: Arr, source: Any, destination: Any, /, *, out: Arr | None = None) -> Arr:
    ndim = x.shape.rank
    src, dst = _axes(source, ndim), _axes(destination, ndim)
    order = [n for n in range(ndim) if n not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return tf.transpose(x, perm=order)


def expand_dims(x: Arr, /, axis: Any = 0, *, out: Arr | None = None) -> Arr:
    n = 1 if isinstance(axis, int) else len(axis)
    for a in sorted(_axes(axis, x.shape.rank + n)):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x: Arr, /, axis: Any = None, *, out: Arr | None = None) -> Arr:
    axes = None if axis is None else _axes(axis, x.shape.rank)
    if axes == []:  # tf.squeeze reads an empty axis list as "every length-one axis"
        return x
    return tf.squeeze(x, axis=axes)


def flip(x: Arr, /, *, axis: Any = None, out: Arr | None = None) -> Arr:
    rank = x.shape.rank
    return tf.reverse(x, axis=list(range(rank)) if axis is None else _axes(axis, rank))


def rot90(m: Arr, /, *, k: int = 1, axes: tuple[int, int] = (0, 1), out: Arr | None = None) -> Arr:
    a0, a1 = _axes(axes, m.shape.rank)
    k %= 4
    if k == 0:
        return tf.identity(m)
    if k == 2:
        return tf.reverse(m, axis=[a0, a1])
    perm = list(range(m.shape.rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return tf.transpose(tf.reverse(m, axis=[a1]), perm=perm)
    return tf.reverse(tf.transpose(m, perm=perm), axis=[a1])


def flipud(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.reverse(m, axis=[0])


def fliplr(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.reverse(m, axis=[1])


def matrix_transpose(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.matrix_transpose(x)


def get_item(x: Arr, /, query: Any, *, out: Arr | None = None) -> Arr:
    query = plain_query(query)
    items = query if isinstance(query, tuple) else (query,)
    basic = all(i is None or i is Ellipsis or isinstance(i, (slice, int)) for i in items)
    shape = primitives.shape(x)
    if basic and not any(isinstance(i, bool) for i in items) and len(shape) <= _STRIDED_RANK:
        try:
            return x[query]
        except tf.errors.InvalidArgumentError:
            np.empty(shape, np.uint8)[query]  # NumPy's IndexError for the query
            raise
    # Advanced indexing (and what StridedSlice cannot do): gather NumPy's selection.
    selected = flat_positions(shape, query)
    return tf.reshape(tf.gather(tf.reshape(x, [-1]), selected.ravel()), selected.shape)


def broadcast_to(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    check_size("broadcast_to", shape, x.dtype)  # TensorFlow's own error is another class
    return tf.broadcast_to(x, list(shape))


def concat(arrays: Sequence[Arr], /, *, axis: int | None = 0, out: Arr | None = None) -> Arr:
    arrays = promoted(arrays)
    if axis is None:
        return tf.concat([tf.reshape(a, [-1]) for a in arrays], 0)
    return tf.concat(arrays, axis)


def stack(arrays: Sequence[Arr], /, *, axis: int = 0, out: Arr | None = None) -> Arr:
    return tf.stack(promoted(arrays), axis)


def repeat(x: Arr, repeats: Any, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    if isinstance(repeats, (tf.Tensor, tf.Variable)):  # tf.repeat reads int32/int64 counts
        repeats = tf.cast(repeats, tf.int64)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    shape = list(primitives.shape(x))
    if 0 in shape:  # tf.repeat miscomputes empty tensors' shapes; only the shape is needed
        counts = tf.reshape(repeats, [-1]) if isinstance(repeats, tf.Tensor) else None
        if counts is None or counts.shape[0] == 1:
            shape[axis] *= int(repeats if counts is None else counts[0])
        else:
            shape[axis] = int(tf.reduce_sum(counts))
        return tf.zeros(shape, x.dtype)
    if x.dtype == tf.uint16:  # no uint16 kernel: the same values through int32
        return tf.cast(tf.repeat(tf.cast(x, tf.int32), repeats, axis=axis), tf.uint16)
    if x.dtype.is_floating or x.dtype.is_complex:
        # tf.repeat flushes subnormal floats to zero: move the bits instead of the values.
        return _from_bits(tf.repeat(_as_bits(x), repeats, axis=axis), x.dtype)
    return tf.repeat(x, repeats, axis=axis)


def _as_bits(x: Arr) -> Arr:
    """A float or complex tensor's bits as integers (complex128: a trailing axis of 2)."""
    if x.dtype == tf.complex128:
        x = tf.bitcast(x, tf.float64)
    return tf.bitcast(x, {2: tf.int16, 4: tf.int32, 8: tf.int64}[x.dtype.size])


def _from_bits(bits: Arr, dtype: Any) -> Arr:
    """Undo :func:`_as_bits`."""
    if dtype == tf.complex128:
        return tf.bitcast(tf.bitcast(bits, tf.float64), tf.complex128)
    return tf.bitcast(bits, dtype)


def roll(x: Arr, /, shift: Any, *, axis: Any = None, out: Arr | None = None) -> Arr:
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def tile(x: Arr, repetitions: Sequence[int], /, *, out: Arr | None = None) -> Arr:
    """NumPy's rule: the shorter of ``x``'s shape and ``repetitions`` is padded with leading 1s."""
    reps = list(repetitions)
    rank = x.shape.rank
    reps = [1] * (rank - len(reps)) + reps
    x = tf.reshape(x, [1] * (len(reps) - rank) + list(primitives.shape(x)))
    if x.dtype == tf.uint16:
        return tf.cast(tf.tile(tf.cast(x, tf.int32), reps), tf.uint16)
    return tf.tile(x, reps)
