"""Functional API: elementwise functions (an Ivy-style demo tree with deliberate mistakes)."""

from typing import Optional, Union

import ivy
from ivy.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_device,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    to_native_arrays_and_back,
)
from ivy.utils.backend import current_backend


# Clean: Ivy's documented order, innermost last.
@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@handle_device
def tan(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).tan(x, out=out)


# IVY005: handle_out_argument sits below to_native_arrays_and_back, so it would see the
# native buffer instead of the ivy.Array passed as `out`.
@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
@handle_out_argument
@handle_array_function
@handle_device
def sin(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).sin(x, out=out)
