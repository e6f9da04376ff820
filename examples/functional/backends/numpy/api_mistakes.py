"""NumPy backend halves of ``functional/ivy/api_mistakes.py`` (clean themselves)."""

from typing import Optional

import numpy as np


def cbrt(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.cbrt(x)


def expm1(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.expm1(x)


# Returns a view of `x` (see IVY011 on the API function).
def matrix_transpose(
    x: np.ndarray, /, *, conjugate: bool = False, out: Optional[np.ndarray] = None
) -> np.ndarray:
    if conjugate:
        x = np.conjugate(x)
    return np.swapaxes(x, -1, -2)


# Ignores `out` (see IVY016 on the API function).
def count_nonzero(
    x: np.ndarray,
    /,
    *,
    axis: Optional[int] = None,
    keepdims: bool = False,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    return np.asarray(np.count_nonzero(x, axis=axis, keepdims=keepdims))


def log1p(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.log1p(x)
