"""The ``fft`` extension's array functions for backends whose arrays follow the standard
themselves (NumPy 2, JAX): each calls the same function of the array's own namespace
(``x.__array_namespace__().fft`` -- ``numpy.fft``, ``jax.numpy.fft``), whose signatures are
the standard's. One module serves both backends; only the frequency grids, which take no
array to find a namespace from, stay in each backend's ``fft_ext``."""

from __future__ import annotations

from typing import Any

Arr = Any


def _fft(x: Arr) -> Any:
    return x.__array_namespace__().fft


def fft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).fft(x, n=n, axis=axis, norm=norm)


def ifft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).ifft(x, n=n, axis=axis, norm=norm)


def fftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).fftn(x, s=s, axes=axes, norm=norm)


def ifftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).ifftn(x, s=s, axes=axes, norm=norm)


def rfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).rfft(x, n=n, axis=axis, norm=norm)


def irfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).irfft(x, n=n, axis=axis, norm=norm)


def rfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).rfftn(x, s=s, axes=axes, norm=norm)


def irfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).irfftn(x, s=s, axes=axes, norm=norm)


def hfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).hfft(x, n=n, axis=axis, norm=norm)


def ihfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return _fft(x).ihfft(x, n=n, axis=axis, norm=norm)


def fftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _fft(x).fftshift(x, axes=axes)


def ifftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _fft(x).ifftshift(x, axes=axes)
