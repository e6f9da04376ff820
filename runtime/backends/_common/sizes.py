"""A shape no backend can allocate is refused before the backend sees it.

JAX (XLA) computes an array's byte size in a signed 64-bit product and, when it overflows,
terminates the process (``overflow in static extent product``) instead of raising:
``zeros((2**62, 8))`` killed the interpreter. The others answered each in its own way
(NumPy and TensorFlow ``ValueError``, PyTorch ``RuntimeError``; NumPy's ``arange`` with a
float step and TensorFlow's ``linspace`` an empty array), so every backend's creation
functions and ``broadcast_to`` call :func:`check_size` first and raise the one
:class:`IvyValueError` NumPy's "array is too big" stands for.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from ivycheck.runtime.dtypes import default_float
from ivycheck.runtime.exceptions import IvyValueError

MAX_BYTES = 2**63 - 1
"""The largest byte size a signed 64-bit size type holds (XLA's, and NumPy's ``npy_intp``)."""


def check_size(name: str, shape: int | Iterable[Any], dtype: Any) -> None:
    """Raise :class:`IvyValueError` when an array of ``shape`` and ``dtype`` (a ``torch.dtype``, a
    ``tf.DType`` or a NumPy-readable one; ``None``: the default float) would take more than :data:`MAX_BYTES` bytes. Any
    other bad shape (negative, not integers) is left to the backend's own error."""
    dims = (shape,) if isinstance(shape, int) else tuple(shape)
    if not all(isinstance(d, int) and d >= 0 for d in dims):
        return
    count = math.prod(dims)
    if count * 16 <= MAX_BYTES:  # no dtype is wider than 16 bytes: the common case
        return
    itemsize = getattr(dtype, "itemsize", None)  # np.dtype's and torch.dtype's
    if not isinstance(itemsize, int):
        itemsize = getattr(dtype, "size", None)  # tf.DType's
    if not isinstance(itemsize, int):
        itemsize = np.dtype(str(default_float()) if dtype is None else dtype).itemsize
    if count * itemsize > MAX_BYTES:
        raise IvyValueError(
            f"{name}: an array of shape {dims} would take {count * itemsize} bytes, more "
            f"than any backend can address ({MAX_BYTES}): array is too big"
        )


def check_range(name: str, start: Any, stop: Any, step: Any, dtype: Any) -> None:
    """:func:`check_size` of ``arange(start, stop, step)``'s ``ceil((stop - start) / step)``
    elements; arguments whose length cannot be computed are left to the backend."""
    try:
        count = math.ceil((stop - start) / step)
    except (ArithmeticError, ValueError, TypeError):
        return
    check_size(name, max(count, 0), dtype)
