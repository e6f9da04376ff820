"""TensorFlow has no type promotion: operands are cast to the standard's result dtype first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import tensorflow as tf

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.dtypes import result_type


def promoted(arrays: Sequence[Any]) -> list[Any]:
    """Every operand cast to the standard's result dtype of all of them."""
    dtype = tf.as_dtype(str(result_type(*arrays)))
    return [tf.cast(a, dtype) for a in arrays]


def axes(axis: Any, ndim: int) -> list[int]:
    """``axis`` (an int or a sequence) as a list of non-negative axes."""
    return list(normalize_axes(axis, ndim))


def to_last(x: Any, axis: int) -> tuple[Any, list[int]]:
    """``x`` with ``axis`` moved last, and the permutation that undoes it."""
    ndim = x.shape.rank
    axis %= ndim
    perm = [a for a in range(ndim) if a != axis] + [axis]
    inverse = sorted(range(ndim), key=perm.__getitem__)
    return tf.transpose(x, perm), inverse
