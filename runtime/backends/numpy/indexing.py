"""NumPy indexing functions."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def take(x: Arr, indices: Arr, /, *, axis: int | None = None, out: Arr | None = None) -> Arr:
    return np.take(x, indices, axis=axis)


def take_along_axis(x: Arr, indices: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return np.take_along_axis(x, indices, axis=axis)
