"""PyTorch backend: `out` forwarding, with deliberate mistakes (IVY001-IVY004, IVY015)."""

from typing import Optional

import ivy
import torch
from torch import cosh as tcosh


# IVY001: `out` travels in a dict into `torch.cosh`, yet no `support_native_out`.
def cosh(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    kw = {"out": out}
    return tcosh(x, **kw)


# IVY002: `out` is only written with inplace_update (the wrapper's own job); the attribute
# makes the wrapper skip it and rebind `out` instead.
def sinh(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    ret = torch.sinh(x)
    return ivy.inplace_update(out, ret)


sinh.support_native_out = True


# IVY003: the exclusive/reverse path returns a fresh tensor and never writes `out`
# (the shape of a real Ivy bug).
def cumsum(
    x: torch.Tensor,
    axis: int = 0,
    exclusive: bool = False,
    reverse: bool = False,
    *,
    dtype: Optional[torch.dtype] = None,
    out: Optional[torch.Tensor] = None,
) -> torch.Tensor:
    if exclusive or reverse:
        res = torch.cumsum(torch.flip(x, (axis,)), axis, dtype=dtype)
        return torch.flip(res, (axis,))
    return torch.cumsum(x, axis, dtype=dtype, out=out)


cumsum.support_native_out = True


# IVY004: torch.transpose has no `out`.
def swapaxes(
    x: torch.Tensor, axis0: int, axis1: int, /, *, out: Optional[torch.Tensor] = None
) -> torch.Tensor:
    return torch.transpose(x, axis0, axis1, out=out)


# IVY015: setattr with False is still an attribute.
def arctan(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    return torch.arctan(x)


setattr(arctan, "support_native_out", False)


# Clean: a native call with `out` followed by `.to(dtype)`.
def expm1(
    x: torch.Tensor, /, *, dtype: Optional[torch.dtype] = None, out: Optional[torch.Tensor] = None
) -> torch.Tensor:
    return torch.expm1(x, out=out).to(dtype)


setattr(expm1, "support_native_out", True)


# Clean: a versioned implementation is exempt; its public caller carries the attribute.
def log1p_v_0p3p0_to_0p3p1(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None):
    return torch.log1p(x, out=out)


def log1p(x: torch.Tensor, /, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    if out is None:
        return torch.log1p(x)
    return log1p_v_0p3p0_to_0p3p1(x, out=out)


log1p.support_native_out = True
