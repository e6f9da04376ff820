"""Functional API: manipulation functions that return views."""

from typing import Optional, Sequence, Union

import ivy
from ivy.func_wrapper import (
    handle_array_function,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_view,
    to_native_arrays_and_back,
)
from ivy.utils.backend import current_backend


# Clean: a view function that lets callers ask for a copy.
@handle_exceptions
@handle_nestable
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def reshape(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    shape: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).reshape(x, shape, copy=copy, out=out)


# IVY006: returns a view of `x`, and callers have no `copy=True` to opt out.
@handle_exceptions
@handle_nestable
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def flip(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[Union[int, Sequence[int]]] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).flip(x, axis=axis, out=out)
