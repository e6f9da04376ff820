"""NumPy view functions. They also compute the *geometry* of tracked views on the other
backends (``views.py``), so they must accept any ndarray, including the uint8 geometry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ivycheck.runtime.backends._common.promote import promote
from ivycheck.runtime.backends._common.sizes import check_size
from ivycheck.runtime.backends.numpy import primitives

Arr = Any


def reshape(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    return np.reshape(x, shape)


def permute_dims(x: Arr, /, axes: Sequence[int], *, out: Arr | None = None) -> Arr:
    return np.transpose(x, axes)


def swapaxes(x: Arr, axis0: int, axis1: int, /, *, out: Arr | None = None) -> Arr:
    return np.swapaxes(x, axis0, axis1)


def moveaxis(x: Arr, source: Any, destination: Any, /, *, out: Arr | None = None) -> Arr:
    return np.moveaxis(x, source, destination)


def expand_dims(x: Arr, /, axis: Any = 0, *, out: Arr | None = None) -> Arr:
    return np.expand_dims(x, axis)


def squeeze(x: Arr, /, axis: Any = None, *, out: Arr | None = None) -> Arr:
    return np.squeeze(x, axis=axis)


def flip(x: Arr, /, *, axis: Any = None, out: Arr | None = None) -> Arr:
    return np.flip(x, axis=axis)


def rot90(m: Arr, /, *, k: int = 1, axes: tuple[int, int] = (0, 1), out: Arr | None = None) -> Arr:
    return np.rot90(m, k, axes)


def flipud(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.flipud(m)


def fliplr(m: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.fliplr(m)


def matrix_transpose(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.swapaxes(x, -1, -2)


def get_item(x: Arr, /, query: Any, *, out: Arr | None = None) -> Arr:
    return x[query]


def broadcast_to(x: Arr, /, shape: Sequence[int], *, out: Arr | None = None) -> Arr:
    check_size("broadcast_to", shape, x.dtype)  # NumPy's own error is another class
    return np.broadcast_to(x, tuple(shape))


def concat(arrays: Sequence[Arr], /, *, axis: int | None = 0, out: Arr | None = None) -> Arr:
    return np.concatenate(promote(primitives, *arrays), axis=axis)


def stack(arrays: Sequence[Arr], /, *, axis: int = 0, out: Arr | None = None) -> Arr:
    return np.stack(promote(primitives, *arrays), axis=axis)


def repeat(x: Arr, repeats: Any, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    return np.repeat(x, repeats, axis=axis)


def roll(x: Arr, /, shift: Any, *, axis: Any = None, out: Arr | None = None) -> Arr:
    return np.roll(x, shift, axis=axis)


def tile(x: Arr, repetitions: Sequence[int], /, *, out: Arr | None = None) -> Arr:
    return np.tile(x, tuple(repetitions))
