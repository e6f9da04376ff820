"""Functional API counterpart of the backend `scatter_flat` in native_out_mistakes.py.

`out` is data here (the array scattered into), so the API has no `@handle_out_argument`,
and a backend's `support_native_out` on it is not judged (IVY001/IVY002).
"""

from typing import Optional, Union

import ivy
from ivy.func_wrapper import handle_exceptions, handle_nestable, to_native_arrays_and_back
from ivy.utils.backend import current_backend


@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
def scatter_flat(
    indices: Union[ivy.Array, ivy.NativeArray],
    updates: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    size: Optional[int] = None,
    reduction: str = "sum",
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(indices).scatter_flat(
        indices, updates, size=size, reduction=reduction, out=out
    )
