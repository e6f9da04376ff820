"""PyTorch backend halves of ``functional/ivy/api_mistakes.py`` (clean themselves)."""

from typing import Optional, Sequence

import torch


def expm1(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    return torch.expm1(x)


# Ignores `out` (see IVY016 on the API function).
def count_nonzero(
    x: torch.Tensor,
    /,
    *,
    axis: Optional[int] = None,
    keepdims: bool = False,
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    ret = torch.count_nonzero(x, dim=axis)
    return ret.unsqueeze(axis) if keepdims and axis is not None else ret


# PyTorch's own implementation of the mixed `layer_norm` (see IVY013 on the API function).
def layer_norm(
    x: torch.Tensor,
    normalized_idxs: Sequence[int],
    /,
    *,
    eps: float = 1e-5,
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    shape = [x.shape[i] for i in normalized_idxs]
    return torch.nn.functional.layer_norm(x, shape, eps=eps)


def log1p(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    return torch.log1p(x)
