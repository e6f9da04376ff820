"""PyTorch data-type functions."""

from __future__ import annotations

import functools
from typing import Any

import torch

from ivycheck.runtime.backends.torch.primitives import target_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    if type(x) is not torch.Tensor:
        x = torch.as_tensor(x)
    return x.to(target_dtype(dtype), copy=copy)


# As NumPy's ``astype.native_table``: ``x.to(known[dtype], copy=True)`` without a frame.
astype.native_table = (  # type: ignore[attr-defined]
    torch.Tensor,
    functools.partial(torch.Tensor.to, copy=True),
    target_dtype.known,  # type: ignore[attr-defined]
)
