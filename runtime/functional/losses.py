"""Compositional functions: written with other runtime functions, no backend code.

They handle ``out`` themselves (``inplace_update`` at the end) and so are *not* wrapped with
``handle_out_argument``, which would consume ``out`` before the body sees it (IVY010).
"""

# mypy: disable-error-code="no-any-return"
# (``inplace_update`` returns its target, typed Any because it may be a container)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.exceptions import IvyValueError
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    inputs_to_ivy_arrays,
)
from ivycheck.runtime.functional.elementwise import clip, log, multiply, negative
from ivycheck.runtime.functional.general import inplace_update
from ivycheck.runtime.functional.statistical import mean, sum
from ivycheck.runtime.native import NativeArray


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@inputs_to_ivy_arrays
@handle_array_function
def cross_entropy(
    true: Array | NativeArray,
    pred: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    epsilon: float = 1e-7,
    reduction: str = "mean",
    out: Optional[Array] = None,
) -> Array:
    """Cross entropy of predicted probabilities ``pred`` against targets ``true``.

    ``pred`` is clipped to ``[epsilon, 1 - epsilon]`` so that ``log`` stays finite;
    ``reduction`` is ``"mean"``, ``"sum"`` or ``"none"`` over the remaining axes.
    """
    log_pred = log(clip(pred, epsilon, 1 - epsilon))
    ret = negative(sum(multiply(log_pred, true), axis=axis))
    if reduction == "mean":
        ret = mean(ret)
    elif reduction == "sum":
        ret = sum(ret)
    elif reduction != "none":
        raise IvyValueError(f"cross_entropy: unknown reduction {reduction!r}")
    if out is not None:
        return inplace_update(out, ret)
    return ret
