"""PyTorch lacks most kernels for uint16, uint32 and uint64 (``amax``, ``argmax``, ``sum``,
``matmul``, ``tril``, ``searchsorted`` ... raise "not implemented for 'UInt64'").

Functions that need one run it on int64 instead: :func:`signed` is exact for uint16/uint32 and,
for uint64, the same bits -- sums and products modulo 2**64 are the same in two's complement;
:func:`ordered` maps uint64 onto int64 keeping the order (the sign bit flipped), for sorting and
comparisons; :func:`restore` maps either back to the unsigned dtype.
"""

from __future__ import annotations

from typing import Any

import torch

WIDE_UNSIGNED = frozenset({torch.uint16, torch.uint32, torch.uint64})
_SIGN = -(2**63)


def signed(x: Any) -> Any:
    """``x`` as int64 (the same bits for uint64); other dtypes unchanged."""
    if x.dtype == torch.uint64:
        return x.view(torch.int64)
    if x.dtype in WIDE_UNSIGNED:
        return x.to(torch.int64)
    return x


def ordered(x: Any) -> Any:
    """``x`` as int64 in the same order (uint64: sign bit flipped); other dtypes unchanged."""
    if x.dtype == torch.uint64:
        return x.view(torch.int64) ^ _SIGN
    return signed(x)


def restore(x: Any, dtype: Any, *, from_ordered: bool = False) -> Any:
    """Undo :func:`signed` (or :func:`ordered`) for a result meant to be of ``dtype``."""
    if dtype not in WIDE_UNSIGNED or x.dtype == dtype:
        return x
    if dtype == torch.uint64:
        return (x ^ _SIGN if from_ordered else x).view(torch.uint64)
    return x.to(dtype)


def compute_dtype(dtype: Any) -> Any:
    """The dtype to compute a result of ``dtype`` in: int64 for the wide unsigned ones."""
    return torch.int64 if dtype in WIDE_UNSIGNED else dtype
