"""PyTorch backend: elementwise functions."""

from typing import Optional

import torch


def tan(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    return torch.tan(x, out=out)


tan.support_native_out = True


def sin(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    return torch.sin(x, out=out)


sin.support_native_out = True
