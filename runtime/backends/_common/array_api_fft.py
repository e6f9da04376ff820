"""The ``fft`` extension's array functions for backends whose arrays follow the standard
themselves (NumPy 2, JAX): each calls the same function of the array's own namespace
(``x.__array_namespace__().fft`` -- ``numpy.fft``, ``jax.numpy.fft``), whose signatures are
the standard's. One module serves both backends; only the frequency grids, which take no
array to find a namespace from, stay in each backend's ``fft_ext``.

Every transform first checks its number of data points (:func:`check_points`,
:func:`check_shape`, which PyTorch's ``fft_ext`` uses too): fewer than one point raises one
``ValueError`` on every backend."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Arr = Any


def _fft(x: Arr) -> Any:
    return x.__array_namespace__().fft


def checked_points(n: int) -> int:
    """A transform length, checked. NumPy and TensorFlow refuse fewer than one data point
    (``ValueError``; TensorFlow would abort the process), PyTorch raised ``RuntimeError``, and
    JAX returned an empty array for some transforms and failed to lower others with a text
    naming the caller's source line: one ``ValueError``, NumPy's, before any backend runs."""
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}): a transform needs at least one")
    return n


def check_points(x: Arr, n: int | None, axis: int, *, halved: bool = False) -> None:
    """A one-dimensional transform's length: ``n``, else ``x``'s length along ``axis`` (``2 *
    (m - 1)`` for a transform of half a spectrum, ``halved``: ``irfft``, ``hfft``). An axis
    ``x`` has not is left to the backend's own error."""
    if n is not None:
        checked_points(n)
        return
    shape = tuple(x.shape)
    if -len(shape) <= axis < len(shape):
        m = int(shape[axis])
        checked_points(2 * (m - 1) if halved else m)


def check_shape(
    x: Arr, s: Sequence[int] | None, axes: Sequence[int] | None, *, halved: bool = False
) -> None:
    """An n-dimensional transform's lengths, as :func:`check_points` for each transformed
    axis (``s[i] == -1``: the axis' own length; ``halved``: the last axis, ``irfftn``)."""
    shape = tuple(x.shape)
    if axes is None:
        axes = range(-len(s), 0) if s is not None else range(-len(shape), 0)
    sizes = list(s) if s is not None else [None] * len(axes)
    if len(sizes) != len(axes) or not all(-len(shape) <= a < len(shape) for a in axes):
        return  # the backend's own error
    last = len(sizes) - 1
    for i, (size, axis) in enumerate(zip(sizes, axes, strict=True)):
        check_points(x, None if size in (None, -1) else size, axis, halved=halved and i == last)


def fft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return _fft(x).fft(x, n=n, axis=axis, norm=norm)


def ifft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return _fft(x).ifft(x, n=n, axis=axis, norm=norm)


def fftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return _fft(x).fftn(x, s=s, axes=axes, norm=norm)


def ifftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return _fft(x).ifftn(x, s=s, axes=axes, norm=norm)


def rfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return _fft(x).rfft(x, n=n, axis=axis, norm=norm)


def irfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis, halved=True)
    return _fft(x).irfft(x, n=n, axis=axis, norm=norm)


def rfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes)
    return _fft(x).rfftn(x, s=s, axes=axes, norm=norm)


def irfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: Any = "backward", out: Any = None
) -> Arr:
    check_shape(x, s, axes, halved=True)
    return _fft(x).irfftn(x, s=s, axes=axes, norm=norm)


def hfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis, halved=True)
    return _fft(x).hfft(x, n=n, axis=axis, norm=norm)


def ihfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: Any = "backward", out: Any = None
) -> Arr:
    check_points(x, n, axis)
    return _fft(x).ihfft(x, n=n, axis=axis, norm=norm)


def fftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _fft(x).fftshift(x, axes=axes)


def ifftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _fft(x).ifftshift(x, axes=axes)
