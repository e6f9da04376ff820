"""PyTorch set functions on ``torch.unique`` (sorted; NaNs distinct, as in NumPy). The first
index of each value, which torch does not give, is the smallest position mapped to it."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends._common.promote import promote
from ivycheck.runtime.backends.torch import _unsigned, primitives

Arr = Any


def _unique(x: Arr) -> tuple[Arr, Arr, Arr]:
    if x.is_complex():  # no complex kernel: unique (real, imag) rows, in lexicographic order
        pairs = torch.view_as_real(x.resolve_conj()).reshape(-1, 2)
        rows, inverse, counts = torch.unique(
            pairs, sorted=True, return_inverse=True, return_counts=True, dim=0
        )
        values = torch.view_as_complex(rows.contiguous())
        return values, inverse.reshape(x.shape), counts
    return torch.unique(x, sorted=True, return_inverse=True, return_counts=True)  # type: ignore[no-any-return]


def unique_all(x: Arr, /) -> tuple[Arr, Arr, Arr, Arr]:
    values, inverse, counts = _unique(x)
    flat = torch.reshape(inverse, (-1,))
    first = torch.full(values.shape, flat.numel(), dtype=torch.int64)
    first = first.scatter_reduce(0, flat, torch.arange(flat.numel()), "amin")
    return values, first, inverse, counts


def unique_counts(x: Arr, /) -> tuple[Arr, Arr]:
    values, _, counts = _unique(x)
    return values, counts


def unique_inverse(x: Arr, /) -> tuple[Arr, Arr]:
    values, inverse, _ = _unique(x)
    return values, inverse


def unique_values(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unique(x)[0] if x.is_complex() else torch.unique(x, sorted=True)


def isin(x1: Arr, x2: Arr, /, *, invert: bool = False, out: Arr | None = None) -> Arr:
    x1, x2 = promote(primitives, x1, x2)
    # (no kernel for uint16-64: their bits as int64 compare equal alike)
    return torch.isin(_unsigned.signed(x1), _unsigned.signed(x2), invert=invert)
