"""NumPy data-type functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.backends.numpy.primitives import target_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    if type(x) is not np.ndarray:
        x = np.asarray(x)
    return x.astype(target_dtype(dtype)) if copy else x.astype(target_dtype(dtype), copy=False)
