"""NumPy searching functions (index results are intp, int64 here)."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def argmax(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    # NumPy's own ``out`` is not used: its check compares ``out`` with the *input* dtype.
    return np.asarray(np.argmax(x, axis=axis, keepdims=keepdims))


def argmin(
    x: Arr, /, *, axis: int | None = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return np.asarray(np.argmin(x, axis=axis, keepdims=keepdims))


def nonzero(x: Arr, /) -> tuple[Arr, ...]:
    return np.nonzero(x)


def searchsorted(
    x1: Arr, x2: Arr, /, *, side: str = "left", sorter: Arr | None = None, out: Arr | None = None
) -> Arr:
    return np.asarray(np.searchsorted(x1, x2, side=side, sorter=sorter))  # type: ignore[call-overload]


def count_nonzero(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None
) -> Arr:
    return np.asarray(np.count_nonzero(x, axis=axis, keepdims=keepdims), dtype=np.int64)
