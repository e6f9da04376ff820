"""NumPy data-type functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.backends.numpy.primitives import native_dtype
from ivycheck.runtime.dtypes import as_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    return np.asarray(x).astype(native_dtype(as_dtype(dtype)), copy=copy)
