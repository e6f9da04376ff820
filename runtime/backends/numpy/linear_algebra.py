"""NumPy linear algebra."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.matmul(x1, x2, out=out)


matmul.support_native_out = True  # type: ignore[attr-defined]


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    # np.linalg.cholesky has no ``out``: the wrapper writes the result.
    return np.linalg.cholesky(x, upper=upper)


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    return np.tensordot(x1, x2, axes=axes)


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    return np.vecdot(x1, x2, axis=axis, out=out)  # type: ignore[call-overload]


vecdot.support_native_out = True  # type: ignore[attr-defined]
