"""PyTorch creation functions (computed, then written to ``out`` by the wrapper: torch's own
``out=`` would demand that ``dtype`` match ``out``'s dtype)."""

from __future__ import annotations

from typing import Any

import torch

Arr = Any


def _shape(shape: Any) -> tuple[int, ...]:
    return (shape,) if isinstance(shape, int) else tuple(shape)


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.zeros(_shape(shape), dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.ones(_shape(shape), dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.empty(_shape(shape), dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.full(_shape(shape), fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    return torch.arange(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    if endpoint:
        return torch.linspace(start, stop, num, dtype=dtype)
    return torch.linspace(start, stop, num + 1, dtype=dtype)[:-1]


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return torch.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.clone(x)
