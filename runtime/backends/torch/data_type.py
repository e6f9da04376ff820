"""PyTorch data-type functions."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends.torch.primitives import target_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    if type(x) is not torch.Tensor:
        x = torch.as_tensor(x)
    return x.to(target_dtype(dtype), copy=copy)
