"""Operands of a binary elementwise function cast to the standard's result dtype.

PyTorch treats a 0-d tensor like a Python scalar in promotion (0-d int64 + 1-d int32 gives
int32; the standard: int64) and has no promotion for uint16/32/64 with signed dtypes;
TensorFlow has no implicit promotion at all. Those backends call the native function on
operands already cast to :func:`ivycheck.runtime.dtypes.result_type` -- the one promotion
table of the runtime -- so the native function sees a single dtype and cannot pick another.
"""

from __future__ import annotations

from typing import Any

from ivycheck.runtime.dtypes import SCALAR_TYPES, Dtype, result_type


def promote(prims: Any, *operands: Any) -> list[Any]:
    """``operands`` (native arrays or Python scalars) as native arrays of one dtype.

    Arrays of one dtype already are what the standard asks: they are returned unchanged (no
    copy, no lookup), the common case. ``prims`` is the backend's ``primitives`` module.
    """
    first = getattr(operands[0], "dtype", None)
    if first is not None and all(getattr(x, "dtype", None) == first for x in operands[1:]):
        return list(operands)
    return cast_all(prims, result_type(*operands), operands)


def cast_all(prims: Any, dtype: Dtype | str, operands: Any) -> list[Any]:
    """Each of ``operands`` as a native array of ``dtype``.

    A Python scalar is built in ``dtype`` directly: converting it first (to the backend's
    default float32, or int64) would round a float64 value or widen an int8 result.
    """
    return [
        prims.asarray(x, dtype, None) if isinstance(x, SCALAR_TYPES) else prims.cast(x, dtype)
        for x in operands
    ]


def bounds(prims: Any, x: Any, low: Any, high: Any) -> list[Any]:
    """``clip``'s bounds as native arrays of ``x``'s dtype (``None`` kept): the standard says
    they take no part in type promotion, the result has ``x``'s dtype."""
    dtype = prims.dtype_name(x)
    return [None if b is None else cast_all(prims, dtype, [b])[0] for b in (low, high)]
