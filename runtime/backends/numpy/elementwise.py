"""NumPy elementwise functions: ufuncs take ``out``, so every one forwards it natively."""

from __future__ import annotations

from typing import Any

import numpy as np

Arr = Any


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.abs(x, out=out)


abs.support_native_out = True  # type: ignore[attr-defined]


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.negative(x, out=out)


negative.support_native_out = True  # type: ignore[attr-defined]


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sin(x, out=out)


sin.support_native_out = True  # type: ignore[attr-defined]


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.cos(x, out=out)


cos.support_native_out = True  # type: ignore[attr-defined]


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.tan(x, out=out)


tan.support_native_out = True  # type: ignore[attr-defined]


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.exp(x, out=out)


exp.support_native_out = True  # type: ignore[attr-defined]


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.log(x, out=out)


log.support_native_out = True  # type: ignore[attr-defined]


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.sqrt(x, out=out)


sqrt.support_native_out = True  # type: ignore[attr-defined]


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.floor(x, out=out)


floor.support_native_out = True  # type: ignore[attr-defined]


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.ceil(x, out=out)


ceil.support_native_out = True  # type: ignore[attr-defined]


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    return np.round(x, decimals, out=out)


round.support_native_out = True  # type: ignore[attr-defined]


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.add(x1, x2, out=out)


add.support_native_out = True  # type: ignore[attr-defined]


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.subtract(x1, x2, out=out)


subtract.support_native_out = True  # type: ignore[attr-defined]


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.multiply(x1, x2, out=out)


multiply.support_native_out = True  # type: ignore[attr-defined]


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.divide(x1, x2, out=out)


divide.support_native_out = True  # type: ignore[attr-defined]


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.maximum(x1, x2, out=out)


maximum.support_native_out = True  # type: ignore[attr-defined]


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return np.minimum(x1, x2, out=out)


minimum.support_native_out = True  # type: ignore[attr-defined]


def clip(
    x: Arr, x_min: Arr | None = None, x_max: Arr | None = None, /, *, out: Arr | None = None
) -> Arr:
    return np.clip(x, x_min, x_max, out=out)


clip.support_native_out = True  # type: ignore[attr-defined]


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    # np.where has no ``out``: the wrapper writes the result with inplace_update.
    return np.where(condition, x1, x2)


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    if modulus:
        return np.remainder(x1, x2, out=out)
    return np.fmod(x1, x2, out=out)


remainder.support_native_out = True  # type: ignore[attr-defined]
