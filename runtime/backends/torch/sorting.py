"""PyTorch sorting (stable; ``descending`` keeps equal elements in their order)."""

from __future__ import annotations

from typing import Any

import torch

Arr = Any


def argsort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    return torch.argsort(x, dim=axis, descending=descending, stable=True)


def sort(
    x: Arr,
    /,
    *,
    axis: int = -1,
    descending: bool = False,
    stable: bool = True,
    out: Arr | None = None,
) -> Arr:
    return torch.sort(x, dim=axis, descending=descending, stable=True).values
