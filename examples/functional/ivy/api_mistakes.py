"""Functional API: one deliberate mistake per API-side rule (IVY008-IVY011, IVY013, IVY016,
IVY017). The backend halves live in ``backends/<name>/api_mistakes.py``."""

from typing import Optional, Sequence, Union

import ivy
from ivy.func_wrapper import (
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_partial_mixed_function,
    inputs_to_ivy_arrays,
    to_native_arrays_and_back,
)
from ivy.utils.backend import current_backend


# IVY008: `out` is positional here, so `cbrt(x, y)` hands `y` to the function as `out`
# where the wrappers, which look for the keyword, never see it.
@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
def cbrt(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).cbrt(x, out=out)


# IVY009: `out` must be an ivy.Array; a native array as `out` raises, yet this annotation
# invites it.
@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
def expm1(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[Union[ivy.Array, ivy.NativeArray]] = None,
) -> ivy.Array:
    return current_backend(x).expm1(x, out=out)


# IVY010: compositional (no backend defines `linear`), so it handles `out` itself; the
# wrapper calls it without `out`, and `matmul(..., out=out)` below is dead code.
@handle_exceptions
@handle_nestable
@handle_out_argument
@inputs_to_ivy_arrays
def linear(
    x: Union[ivy.Array, ivy.NativeArray],
    weight: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return ivy.matmul(x, ivy.matrix_transpose(weight), out=out)


# IVY011: the NumPy implementation returns `np.swapaxes(...)`, a view of `x`, but nothing
# tracks it on JAX/TensorFlow: `y = matrix_transpose(x); y += 1` changes `x` on NumPy only.
@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
def matrix_transpose(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    conjugate: bool = False,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).matrix_transpose(x, conjugate=conjugate, out=out)


# IVY013: on PyTorch, which has its own `layer_norm`, the function is re-wrapped with
# `to_add`; without `handle_out_argument` there, `out` is never written on that backend.
@handle_exceptions
@handle_nestable
@handle_partial_mixed_function
@inputs_to_ivy_arrays
def layer_norm(
    x: Union[ivy.Array, ivy.NativeArray],
    normalized_idxs: Sequence[int],
    /,
    *,
    eps: float = 1e-5,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    mean = ivy.mean(x, axis=normalized_idxs, keepdims=True)
    var = ivy.var(x, axis=normalized_idxs, keepdims=True)
    return ivy.divide(ivy.subtract(x, mean), ivy.sqrt(ivy.add(var, eps)), out=out)


layer_norm.mixed_backend_wrappers = {
    "to_add": ("handle_backend_invalid", "inputs_to_native_arrays", "outputs_to_ivy_arrays"),
    "to_skip": ("inputs_to_ivy_arrays",),
}


# IVY016: no @handle_out_argument, and neither backend writes `out`: `count_nonzero(x,
# out=o)` returns the count and leaves `o` as it was (a real Ivy bug).
@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
def count_nonzero(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[int] = None,
    keepdims: bool = False,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).count_nonzero(x, axis=axis, keepdims=keepdims, out=out)


# IVY017: the backends define `log1p`; `log_1p` is defined nowhere, so every call raises
# AttributeError at run time.
@handle_exceptions
@handle_nestable
@handle_out_argument
@to_native_arrays_and_back
def log1p(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).log_1p(x, out=out)
