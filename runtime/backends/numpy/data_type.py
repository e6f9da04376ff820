"""NumPy data-type functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.backends.numpy.primitives import target_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    if type(x) is not np.ndarray:
        x = np.asarray(x)
    if copy is True:  # the default: no keyword to pass (a fifth of a small cast)
        return x.astype(target_dtype(dtype))
    return x.astype(target_dtype(dtype), copy=copy)


# ``astype(x, dtype)`` with ``copy`` left True is ``x.astype(known[dtype])`` for every dtype
# argument ``target_dtype`` has already answered: the public function's hot path calls the
# method on the ndarray itself (``dispatch.build``: ``native_table``), no Python frame.
astype.native_table = (np.ndarray, np.ndarray.astype, target_dtype.known)  # type: ignore[attr-defined]
