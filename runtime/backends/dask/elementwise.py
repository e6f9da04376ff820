"""Dask elementwise functions: the NumPy backend's, applied to each chunk.

An elementwise function's value at one place depends only on its operands at that place,
so NumPy's function on each block is NumPy's function on the whole array: the special
values (complex infinities, signed zeros), the promotion and the integer rules
(``floor_divide`` by zero is 0) are the NumPy backend's by construction
(:func:`~ivycheck.runtime.backends.dask.lifted.chunkwise`), and the result stays lazy. An
error that depends on values (integer ``pow`` with a negative exponent) is raised when the
values are computed -- but for ``pow``, which raises at the call as on every backend.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np

from ivycheck.runtime.backends._common.integer_ops import refuse_negative_power
from ivycheck.runtime.backends.dask.lifted import chunkwise
from ivycheck.runtime.backends.numpy import elementwise as _numpy

NAMES = tuple(
    name
    for name, value in vars(_numpy).items()
    if callable(value) and not name.startswith("_") and value.__module__ == _numpy.__name__
)
"""Every function of the NumPy backend's elementwise module."""

globals().update({name: chunkwise(getattr(_numpy, name), __name__) for name in NAMES})

_pow_of_chunks = chunkwise(_numpy.pow, __name__)


def pow(x1: Any, x2: Any, /, *, out: Any = None) -> Any:
    """An integer power with a negative exponent raises before anything else is computed
    (one answer on every backend, :mod:`~ivycheck.runtime.backends._common.integer_ops`):
    for that check alone, an integer exponent array's sign is computed at the call."""
    dtypes = (getattr(x, "dtype", x) for x in (x1, x2))
    if np.result_type(*dtypes).kind in "iu":
        refuse_negative_power(bool(da.any(da.less(x2, 0))))
    return _pow_of_chunks(x1, x2)
