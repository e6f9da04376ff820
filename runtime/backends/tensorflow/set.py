"""TensorFlow set functions. ``tf.unique`` neither sorts nor counts NaNs apart, so they are
composed: a stable sort, a new value wherever an element differs from its predecessor (NaN
differs from everything, so every NaN is its own value, as in NumPy), segment reductions."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends._common.promote import promote
from ivycheck.runtime.backends.tensorflow import primitives, sorting

Arr = Any


def _groups(x: Arr) -> tuple[Arr, Arr, Arr, Arr, int]:
    """Flattened: the sort order, the sorted values, each sorted element's value number,
    whether it starts a value, and the number of values."""
    flat = tf.reshape(x, [-1])
    if flat.dtype.is_complex:  # no complex sort: by imaginary part, then stably by real part
        order = sorting.argsort(tf.math.imag(flat))
        order = tf.gather(order, sorting.argsort(tf.gather(tf.math.real(flat), order)))
    else:
        order = sorting.argsort(flat)
    ordered = tf.gather(flat, order)
    starts = tf.concat([tf.ones([1], tf.bool), tf.not_equal(ordered[1:], ordered[:-1])], 0)
    starts = starts[: tf.size(flat)]
    number = tf.cumsum(tf.cast(starts, tf.int64)) - 1
    return order, ordered, number, starts, int(tf.reduce_sum(tf.cast(starts, tf.int64)))


def unique_all(x: Arr, /) -> tuple[Arr, Arr, Arr, Arr]:
    order, ordered, number, starts, n = _groups(x)
    first = tf.math.unsorted_segment_min(order, number, n)
    inverse = tf.scatter_nd(order[:, None], number, tf.shape(order, out_type=tf.int64))
    counts = tf.math.unsorted_segment_sum(tf.ones_like(number), number, n)
    return tf.boolean_mask(ordered, starts), first, tf.reshape(inverse, tf.shape(x)), counts


def unique_counts(x: Arr, /) -> tuple[Arr, Arr]:
    values, _, _, counts = unique_all(x)
    return values, counts


def unique_inverse(x: Arr, /) -> tuple[Arr, Arr]:
    values, _, inverse, _ = unique_all(x)
    return values, inverse


def unique_values(x: Arr, /, *, out: Arr | None = None) -> Arr:
    _, ordered, _, starts, _ = _groups(x)
    return tf.boolean_mask(ordered, starts)


def isin(x1: Arr, x2: Arr, /, *, invert: bool = False, out: Arr | None = None) -> Arr:
    """Every element of ``x1`` compared with every one of ``x2`` (no native ``isin``)."""
    x1, x2 = promote(primitives, x1, x2)
    found = tf.reduce_any(tf.equal(tf.reshape(x1, [-1, 1]), tf.reshape(x2, [1, -1])), axis=1)
    found = tf.reshape(found, tf.shape(x1))
    return tf.logical_not(found) if invert else found
