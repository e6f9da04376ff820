"""PyTorch elementwise functions: forward ``out`` natively (``support_native_out``).

Torch wants a tensor as first operand; ``_t`` turns a Python scalar into a 0-d tensor, which
takes part in type promotion like NumPy's weak scalars.
"""

from __future__ import annotations

from typing import Any

import torch

import ivycheck.runtime as ivy

Arr = Any


def _t(x: Any) -> torch.Tensor:
    return x if isinstance(x, torch.Tensor) else torch.as_tensor(x)


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.abs(_t(x), out=out)


abs.support_native_out = True  # type: ignore[attr-defined]


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.neg(_t(x), out=out)


negative.support_native_out = True  # type: ignore[attr-defined]


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.sin(_t(x), out=out)


sin.support_native_out = True  # type: ignore[attr-defined]


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.cos(_t(x), out=out)


cos.support_native_out = True  # type: ignore[attr-defined]


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.tan(_t(x), out=out)


tan.support_native_out = True  # type: ignore[attr-defined]


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.exp(_t(x), out=out)


exp.support_native_out = True  # type: ignore[attr-defined]


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.log(_t(x), out=out)


log.support_native_out = True  # type: ignore[attr-defined]


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.sqrt(_t(x), out=out)


sqrt.support_native_out = True  # type: ignore[attr-defined]


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.floor(_t(x), out=out)


floor.support_native_out = True  # type: ignore[attr-defined]


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.ceil(_t(x), out=out)


ceil.support_native_out = True  # type: ignore[attr-defined]


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    return torch.round(_t(x), decimals=decimals, out=out)


round.support_native_out = True  # type: ignore[attr-defined]


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.add(_t(x1), x2, out=out)


add.support_native_out = True  # type: ignore[attr-defined]


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.subtract(_t(x1), x2, out=out)


subtract.support_native_out = True  # type: ignore[attr-defined]


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.multiply(_t(x1), x2, out=out)


multiply.support_native_out = True  # type: ignore[attr-defined]


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.divide(_t(x1), x2, out=out)


divide.support_native_out = True  # type: ignore[attr-defined]


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.maximum(_t(x1), _t(x2), out=out)


maximum.support_native_out = True  # type: ignore[attr-defined]


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.minimum(_t(x1), _t(x2), out=out)


minimum.support_native_out = True  # type: ignore[attr-defined]


def clip(
    x: Arr, x_min: Arr | None = None, x_max: Arr | None = None, /, *, out: Arr | None = None
) -> Arr:
    return torch.clamp(_t(x), x_min, x_max, out=out)


clip.support_native_out = True  # type: ignore[attr-defined]


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.where(_t(condition).bool(), _t(x1), _t(x2), out=out)


where.support_native_out = True  # type: ignore[attr-defined]


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    """``modulus=False`` is C's ``fmod`` (sign of the dividend).

    Ivy's version ends with ``.to(x1.dtype)``, which returns a *new* tensor whenever ``out``
    has another dtype, so ``out`` is filled but the caller gets something else. Here that case
    takes the documented fallback: compute, then ``inplace_update(out, ...)``.
    """
    x1 = _t(x1)
    if modulus:
        return torch.remainder(x1, x2, out=out)
    if out is not None and out.dtype != torch.result_type(x1, x2):
        return ivy.inplace_update(out, torch.fmod(x1, x2))
    return torch.fmod(x1, x2, out=out)


remainder.support_native_out = True  # type: ignore[attr-defined]
