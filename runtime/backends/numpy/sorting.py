"""NumPy sorting. Descending order keeps equal elements in their original order: the
ascending stable sort of the reversed array, reversed back."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def argsort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    ret = np.flip(np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable"), axis=axis)
    return x.shape[axis] - 1 - ret


def sort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    """Descending: the elements in :func:`argsort`'s stable order, so equal elements (``0.0``
    and ``-0.0``) keep their order, as on PyTorch and TensorFlow (a reversed ascending sort
    reversed them)."""
    if descending:
        return np.take_along_axis(x, argsort(x, axis=axis, descending=True), axis=axis)
    return np.sort(x, axis=axis, kind="stable")
