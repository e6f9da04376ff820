"""Data-type functions of the standard: ``astype`` (backend-implemented) and the pure ones.

``result_type``, ``can_cast``, ``finfo``, ``iinfo`` and ``isdtype`` compute on dtype names
only (``dtypes.py``), so they are the same object on every backend and need no wrapper.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
from __future__ import annotations

from typing import Any

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.dtypes import can_cast, finfo, iinfo, isdtype, result_type
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_exceptions,
    handle_nestable,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray


@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
@handle_array_function
def astype(
    x: Array | NativeArray, dtype: Any, /, *, copy: bool = True, device: Any = None
) -> Array:
    """``x`` cast to ``dtype`` (unsafe casting, as the standard says); ``copy=False`` may
    return ``x``'s own buffer when the dtype already matches."""
    return current_backend(x).astype(x, dtype, copy=copy)


__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]
