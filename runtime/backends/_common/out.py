"""Writing a computed result into a native ``out`` (backend functions that cannot forward it).

A backend function whose ``support_native_out`` is true receives ``out`` as a native array
whose shape and dtype the dispatcher has already matched to the result; a few of its paths
still compute into a temporary (PyTorch's wide unsigned integers, ``cholesky(upper=True)``)
and write it here. The checks are ``inplace_update``'s -- shape broadcastable to ``out``'s,
``same_kind`` cast -- made before anything is written, so a failure leaves ``out`` as it
was; this module stays below the dispatcher, which is why it does not call
``ivy.inplace_update``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ivycheck.runtime.dtypes import can_write
from ivycheck.runtime.exceptions import InplaceUpdateException


def written(prims: Any, ret: Any, out: Any) -> Any:
    """``ret`` when ``out`` is ``None``; else ``ret`` written into the native ``out``, which
    is returned. ``prims`` is the backend's ``primitives`` module."""
    if out is None:
        return ret
    shape, dtype = prims.shape(out), prims.dtype_name(out)
    vshape, vdtype = prims.shape(ret), prims.dtype_name(ret)
    try:
        fits = np.broadcast_shapes(vshape, shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise InplaceUpdateException(
            f"inplace_update: a value of shape {vshape} cannot be written into shape {shape}"
        )
    if not can_write(vdtype, dtype):
        raise InplaceUpdateException(
            f"inplace_update: cannot write {vdtype} into {dtype} under same_kind casting "
            "(pass keep_input_dtype=True to cast anyway)"
        )
    if vdtype != dtype:
        ret = prims.cast(ret, dtype)
    if not prims.writable(out):
        raise InplaceUpdateException(
            f"inplace_update: a {prims.NAME} {type(out).__qualname__} cannot be updated in place"
            "; wrap it in ivy.Array"
        )
    prims.write(out, ret)
    return out
