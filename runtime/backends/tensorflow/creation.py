"""TensorFlow creation functions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import tensorflow as tf

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.sizes import check_range, check_size
from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.info import as_sequence

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("zeros", shape, dtype)  # TensorFlow ran out of memory instead
    return tf.zeros(shape, dtype=dtype or primitives.default_native(0.0))


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("ones", shape, dtype)  # TensorFlow ran out of memory instead
    return tf.ones(shape, dtype=dtype or primitives.default_native(0.0))


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("empty", shape, dtype)
    return tf.zeros(shape, dtype=dtype or primitives.default_native(0.0))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    dtype = dtype or primitives.default_native(fill_value)
    check_size("full", shape, dtype)
    return tf.fill(shape if not isinstance(shape, int) else [shape], _scalar(fill_value, dtype))


def _scalar(value: Any, dtype: Any) -> Any:
    """``value`` as a 0-d tensor of ``dtype``. A Python float through ``tf.cast`` would be made
    float32 first (16777217.0 would lose its last bit, 1e300 would not convert at all)."""
    if isinstance(value, (bool, int, float, complex)):
        with np.errstate(over="ignore"):
            return tf.constant(np.asarray(value).astype(tf.as_dtype(dtype).as_numpy_dtype))
    return tf.cast(value, dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    """``start + i * step`` for ``i < ceil((stop - start) / step)``, as NumPy computes it
    (``tf.range`` has no unsigned kernels), in int64 for integers, float64 otherwise."""
    if stop is None:
        start, stop = 0, start
    dtype = dtype or primitives.default_native(start, stop, step)
    check_range("arange", start, stop, step, dtype)  # TensorFlow ran out of memory instead
    n = max(math.ceil((stop - start) / step), 0)
    exact = all(isinstance(v, int) for v in (start, stop, step))
    work = tf.int64 if exact else tf.float64
    return tf.cast(start + step * tf.range(n, dtype=work), dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("linspace", num, dtype)  # TensorFlow gave an empty array
    # Converted in float64, not through tf.cast: a Python float would be made float32 first.
    ret = tf.linspace(
        primitives.asarray(float(start), "float64", None),
        primitives.asarray(float(stop), "float64", None),
        num + (not endpoint),
    )
    return tf.cast(ret if endpoint else ret[:-1], dtype or primitives.default_native(0.0))


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return primitives.copy(x)


def empty_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.zeros_like(x, dtype=dtype)


def full_like(x: Arr, /, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return tf.fill(tf.shape(x), _scalar(fill_value, dtype or x.dtype))


def _diagonal_offsets(rows: Any, cols: Any) -> Any:
    """Column index minus row index, per element of a ``rows`` x ``cols`` matrix."""
    return tf.range(cols, dtype=tf.int64)[None, :] - tf.range(rows, dtype=tf.int64)[:, None]


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    """tf.eye has no ``k``: ones where the column index is the row index plus ``k``
    (``tf.eye`` itself for the main diagonal: a fifth of the cost)."""
    cols = n_rows if n_cols is None else n_cols
    check_size("eye", (n_rows, cols), dtype)  # TensorFlow built the diagonal first (GiBs, ~10 s)
    if k == 0:
        return tf.eye(n_rows, cols, dtype=dtype or primitives.default_native(0.0))
    k = max(min(k, cols), -n_rows)  # a diagonal outside the matrix: all zeros, no overflow
    return tf.cast(
        tf.equal(_diagonal_offsets(n_rows, cols), k), dtype or primitives.default_native(0.0)
    )


def from_dlpack(x: Any, /, *, copy: bool | None = None, out: Arr | None = None) -> Arr:
    """Through :func:`dlpack.importable`: a buffer off a 64-byte boundary imported as it is
    aborts the process at the next kernel (``Check failed: IsAligned()``); strides that are
    not compact are refused where the standard asks for a copy."""
    source = dlpack.importable(x, copy, dlpack.aligned_c_contiguous)
    ret = tf.experimental.dlpack.from_dlpack(source.__dlpack__())
    return primitives.copy(ret) if copy and source is x else ret


def meshgrid(*arrays: Arr, indexing: str = "xy") -> Any:
    return as_sequence(tf.meshgrid(*arrays, indexing=indexing))


def _triangle(x: Arr, keep: Any) -> Arr:
    shape = tf.shape(x)
    mask = keep(_diagonal_offsets(shape[-2], shape[-1]))
    return tf.where(mask, x, tf.zeros_like(x))


def tril(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return _triangle(x, lambda offsets: offsets <= k)


def triu(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return _triangle(x, lambda offsets: offsets >= k)
