"""PyTorch's ``fft`` extension functions, from ``torch.fft`` (same parameters under other
names: ``dim`` for ``axis``). The frequency grids come in the default float dtype."""

from __future__ import annotations

from typing import Any

import torch

from ivycheck.runtime.backends._common.array_api_fft import check_points, check_shape
from ivycheck.runtime.backends.torch import primitives
from ivycheck.runtime.dtypes import default_float

Arr = Any


def _dtype(dtype: Any) -> Any:
    """The frequencies' dtype: the one asked for, else the default float dtype."""
    return primitives.native_dtype(default_float()) if dtype is None else dtype


def _complex(x: Arr) -> Arr:
    """A real input as complex of its precision, as NumPy reads it: ``torch.fft.ifft`` of a
    real tensor returned a conjugate *view*, which cannot be converted or printed."""
    if x.is_complex():
        return x
    return x.to(torch.complex128 if x.dtype == torch.float64 else torch.complex64)


def fft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return torch.fft.fft(_complex(x), n=n, dim=axis, norm=norm)


def ifft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return torch.fft.ifft(_complex(x), n=n, dim=axis, norm=norm)


def fftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return torch.fft.fftn(_complex(x), s=s, dim=axes, norm=norm)


def ifftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return torch.fft.ifftn(_complex(x), s=s, dim=axes, norm=norm)


def rfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return torch.fft.rfft(x, n=n, dim=axis, norm=norm)


def irfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis, halved=True)
    return torch.fft.irfft(x, n=n, dim=axis, norm=norm)


def rfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return torch.fft.rfftn(x, s=s, dim=axes, norm=norm)


def irfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes, halved=True)
    return torch.fft.irfftn(x, s=s, dim=axes, norm=norm)


def hfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis, halved=True)
    return torch.fft.hfft(x, n=n, dim=axis, norm=norm)


def ihfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return torch.fft.ihfft(x, n=n, dim=axis, norm=norm).resolve_conj()  # a lazy conj: no .numpy()


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return torch.fft.fftfreq(n, d=d, dtype=torch.float64).to(_dtype(dtype))


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    ret = torch.fft.rfftfreq(n, d=d, dtype=torch.float64)
    return ret.to(_dtype(dtype))


def fftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    if axes is not None and not isinstance(axes, int) and not len(axes):
        return x.clone()  # torch.roll wants at least one axis
    return torch.fft.fftshift(x, dim=axes)


def ifftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    if axes is not None and not isinstance(axes, int) and not len(axes):
        return x.clone()  # torch.roll wants at least one axis
    return torch.fft.ifftshift(x, dim=axes)
