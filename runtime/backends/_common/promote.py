"""Operands of a binary elementwise function cast to the standard's result dtype.

PyTorch treats a 0-d tensor like a Python scalar in promotion (0-d int64 + 1-d int32 gives
int32; the standard: int64) and has no promotion for uint16/32/64 with signed dtypes;
TensorFlow has no implicit promotion at all. Those backends call the native function on
operands already cast to :func:`ivycheck.runtime.dtypes.result_type` -- the one promotion
table of the runtime -- so the native function sees a single dtype and cannot pick another.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
    default float32, or int64) would round a float64 value or widen an int8 result. A Python
    ``bool`` beside numbers is the number (TensorFlow refuses ``True`` as an int8).
    """
    return [
        prims.asarray(int(x) if type(x) is bool and dtype != "bool" else x, dtype, None)
        if isinstance(x, SCALAR_TYPES)
        else prims.cast(x, dtype)
        for x in operands
    ]


SCALAR_OPERANDS = frozenset(
    {
        "add", "subtract", "multiply", "divide", "pow", "remainder", "floor_divide",
        "atan2", "copysign", "hypot", "logaddexp", "maximum", "minimum", "nextafter",
        "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    }
)  # fmt: skip
"""Binary functions whose Python scalar operands take part in promotion (the wrapper applies
:func:`weak_scalars` to their arguments on every backend)."""


def weak_scalars(prims: Any, args: list[Any]) -> list[Any]:
    """``args`` of a binary function, a Python ``float``/``complex`` beside a bool or integer
    array cast with it to :func:`result_type` (the default float32 / complex64).

    The standard leaves that dtype to the implementation; docs/runtime.md gives the default
    float on every backend. NumPy and JAX (64-bit) would give float64 / complex128, PyTorch
    and TensorFlow already give the default: their dtypes have no ``kind`` and pass unchanged,
    as does every other pair (one type check for the common case).

    A Python ``int`` beside an integer array must fit the array's dtype
    (:func:`_check_int_scalar`).
    """
    if len(args) != 2:
        return args
    x1, x2 = args
    t1, t2 = type(x1), type(x2)
    if t1 is int or t2 is int:
        value, array = (x1, x2) if t1 is int else (x2, x1)
        if not 0 <= value <= 127:  # (every integer dtype holds these: the common case)
            _check_int_scalar(prims, value, array)
        return args
    if t1 is float or t1 is complex:
        array = x2
    elif t2 is float or t2 is complex:
        array = x1
    else:
        return args
    kind = getattr(getattr(array, "dtype", None), "kind", None)
    if kind is None or kind not in "biu":
        return args
    return cast_all(prims, result_type(x1, x2), args)


def _check_int_scalar(prims: Any, value: int, array: Any) -> None:
    """Raise ``OverflowError`` for a Python ``int`` outside the range of the integer array it
    meets (``int8 array + 300``). The standard leaves the result undefined; NumPy 2 and
    array-api-strict raise ``OverflowError``, JAX and TensorFlow wrapped (44), PyTorch raised
    ``RuntimeError``: one answer, NumPy's, on every backend."""
    if array is None or isinstance(array, SCALAR_TYPES):
        return
    name = prims.dtype_name(array)
    if name not in _INTEGRAL or name == "bool":
        return
    info = np.iinfo(name)
    if not info.min <= value <= info.max:
        raise OverflowError(f"Python integer {value} out of bounds for {name}")


_INTEGRAL = frozenset(
    ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
)


def _integral(prims: Any, x: Any) -> bool:
    if isinstance(x, (bool, int)):
        return True
    if isinstance(x, (float, complex)):
        return False
    return prims.dtype_name(x) in _INTEGRAL


def true_division(prims: Any, x1: Any, x2: Any) -> Any:
    """``divide``'s operands: integers and booleans only both become float64, the dtype NumPy
    divides them in (the standard leaves it open; PyTorch would give float32, TensorFlow
    float32 for 8/16-bit integers, JAX float32). Others as they are."""
    if _integral(prims, x1) and _integral(prims, x2):
        return cast_all(prims, "float64", (x1, x2))
    return x1, x2


def bounds(prims: Any, x: Any, low: Any, high: Any) -> list[Any]:
    """``clip``'s bounds as native arrays of ``x``'s dtype (``None`` kept): the standard says
    they take no part in type promotion, the result has ``x``'s dtype."""
    dtype = prims.dtype_name(x)
    return [None if b is None else cast_all(prims, dtype, [b])[0] for b in (low, high)]
