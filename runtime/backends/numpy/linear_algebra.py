"""NumPy linear algebra. Operands of different dtypes are cast to the standard's result dtype
first: NumPy's own promotion makes int32 with float32 a float64."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.dtypes import result_type

Arr = Any


def _promoted(x1: Arr, x2: Arr) -> tuple[Arr, Arr]:
    if x1.dtype == x2.dtype:
        return x1, x2
    dtype = np.dtype(str(result_type(x1, x2)))
    return x1.astype(dtype, copy=False), x2.astype(dtype, copy=False)


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _promoted(x1, x2)
    return np.matmul(x1, x2, out=out)


matmul.support_native_out = True  # type: ignore[attr-defined]


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    # np.linalg.cholesky has no ``out``: the wrapper writes the result.
    return np.linalg.cholesky(x, upper=upper)


def tensordot(x1: Arr, x2: Arr, /, *, axes: Any = 2, out: Arr | None = None) -> Arr:
    return np.tensordot(*_promoted(x1, x2), axes=axes)


def vecdot(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    x1, x2 = _promoted(x1, x2)
    return np.vecdot(x1, x2, axis=axis, out=out)  # type: ignore[call-overload]


vecdot.support_native_out = True  # type: ignore[attr-defined]
