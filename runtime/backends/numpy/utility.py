"""NumPy truth tests (NumPy's ``out`` is not used: the result is bool whatever ``x`` is)."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return np.asarray(np.all(x, axis=axis, keepdims=keepdims))


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return np.asarray(np.any(x, axis=axis, keepdims=keepdims))


def diff(
    x: Arr,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Arr | None = None,
    append: Arr | None = None,
    out: Arr | None = None,
) -> Arr:
    extra = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n=n, axis=axis, **extra)
