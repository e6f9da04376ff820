"""NumPy set functions (NumPy 2's ``unique_*``: NaNs distinct, inverse of ``x``'s shape;
values sorted, as on the other backends)."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def unique_all(x: Arr, /) -> tuple[Arr, Arr, Arr, Arr]:
    return tuple(np.unique_all(x))  # type: ignore[return-value]


def unique_counts(x: Arr, /) -> tuple[Arr, Arr]:
    return tuple(np.unique_counts(x))  # type: ignore[return-value]


def unique_inverse(x: Arr, /) -> tuple[Arr, Arr]:
    return tuple(np.unique_inverse(x))  # type: ignore[return-value]


def unique_values(x: Arr, /, *, out: Arr | None = None) -> Arr:
    # np.unique_values may hash instead of sorting (NumPy 2.3+); the runtime's are sorted.
    return np.unique(x, equal_nan=False)


def isin(x1: Arr, x2: Arr, /, *, invert: bool = False, out: Arr | None = None) -> Arr:
    return np.asarray(np.isin(x1, x2, invert=invert))
