"""NumPy backend: elementwise functions."""

from typing import Optional

import numpy as np


def tan(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.tan(x, out=out)


tan.support_native_out = True


def sin(x: np.ndarray, /, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    return np.sin(x, out=out)


sin.support_native_out = True
