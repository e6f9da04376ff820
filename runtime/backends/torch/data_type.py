"""PyTorch data-type functions."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends.torch.primitives import native_dtype
from ivycheck.runtime.dtypes import as_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    return torch.as_tensor(x).to(native_dtype(as_dtype(dtype)), copy=copy)
