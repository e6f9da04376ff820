"""JAX's ``fft`` extension functions: ``jax.numpy.fft`` (single precision kept:
complex64 in, complex64 out). The frequency grids come in the default float dtype."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivycheck.runtime.backends.jax import primitives
from ivycheck.runtime.dtypes import DEFAULT_FLOAT

Arr = Any


def _dtype(dtype: Any) -> Any:
    """The frequencies' dtype: the one asked for, else the default float dtype."""
    return primitives.native_dtype(DEFAULT_FLOAT) if dtype is None else dtype


def fft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.fft(x, n=n, axis=axis, norm=norm)


def ifft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.ifft(x, n=n, axis=axis, norm=norm)


def fftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.fftn(x, s=s, axes=axes, norm=norm)


def ifftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.ifftn(x, s=s, axes=axes, norm=norm)


def rfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.rfft(x, n=n, axis=axis, norm=norm)


def irfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.irfft(x, n=n, axis=axis, norm=norm)


def rfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.rfftn(x, s=s, axes=axes, norm=norm)


def irfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.irfftn(x, s=s, axes=axes, norm=norm)


def hfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.hfft(x, n=n, axis=axis, norm=norm)


def ihfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    return jnp.fft.ihfft(x, n=n, axis=axis, norm=norm)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return jnp.fft.fftfreq(n, d=d).astype(_dtype(dtype))


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return jnp.fft.rfftfreq(n, d=d).astype(_dtype(dtype))


def fftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return jnp.fft.fftshift(x, axes=axes)


def ifftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return jnp.fft.ifftshift(x, axes=axes)
