"""NumPy backend: manipulation functions."""

from typing import Optional, Sequence, Union

import numpy as np


def reshape(
    x: np.ndarray,
    /,
    shape: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    if copy:
        return np.reshape(x.copy(), shape)
    return np.reshape(x, shape)


def flip(
    x: np.ndarray,
    /,
    *,
    axis: Optional[Union[int, Sequence[int]]] = None,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    return np.flip(x, axis=axis)
