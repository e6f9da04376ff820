"""NumPy's frequency grids of the ``fft`` extension, in the default float dtype (or the
one asked for); the transforms and shifts are ``backends/_array_api_fft.py``, shared with
JAX: both arrays carry the standard's namespace."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.backends.numpy import primitives
from ivycheck.runtime.dtypes import default_float

Arr = Any


def _dtype(dtype: Any) -> Any:
    """The frequencies' dtype: the one asked for, else the default float dtype."""
    return primitives.native_dtype(default_float()) if dtype is None else dtype


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return np.fft.fftfreq(n, d=d).astype(_dtype(dtype))


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return np.fft.rfftfreq(n, d=d).astype(_dtype(dtype))
