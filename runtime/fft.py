"""The ``fft`` extension of the Array API (2023.12 to 2025.12): this module is ``ivy.fft`` (``xp.fft``).

Declared once with Ivy's decorators, dispatched to ``backends/<name>/fft_ext.py``. The
standard makes ``xp.fft`` a namespace, so ``ivy.fft`` is this module and the one-dimensional
transform is ``ivy.fft.fft`` (Ivy's own ``ivy.fft(x, dim)`` function has another signature and
is not provided). None of these names is in the main namespace: the standard has them only
here. ``set_backend`` leaves the module alone; each function dispatches to the backend in use.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    infer_device,
    to_native_arrays_and_back,
)
from ivycheck.runtime.native import NativeArray

Norm = Literal["backward", "ortho", "forward"]

__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def fft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """One-dimensional discrete Fourier transform along ``axis`` (complex in, same dtype out),
    ``x`` cropped or zero-padded to ``n``."""
    return current_backend(x).fft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ifft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`fft`."""
    return current_backend(x).ifft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def rfft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Transform of real input: the ``n // 2 + 1`` non-negative frequencies (float32 gives
    complex64)."""
    return current_backend(x).rfft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def irfft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`rfft`: real output of length ``n`` (default ``2 * (m - 1)``)."""
    return current_backend(x).irfft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def hfft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Transform of a Hermitian-symmetric signal given by its first half: real output."""
    return current_backend(x).hfft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ihfft(
    x: Array | NativeArray,
    /,
    *,
    n: Optional[int] = None,
    axis: int = -1,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`hfft`: the first half of a Hermitian spectrum."""
    return current_backend(x).ihfft(x, n=n, axis=axis, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def fftn(
    x: Array | NativeArray,
    /,
    *,
    s: Optional[Sequence[int]] = None,
    axes: Optional[Sequence[int]] = None,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Discrete Fourier transform over ``axes`` (all, or the last ``len(s)``)."""
    return current_backend(x).fftn(x, s=s, axes=axes, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ifftn(
    x: Array | NativeArray,
    /,
    *,
    s: Optional[Sequence[int]] = None,
    axes: Optional[Sequence[int]] = None,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`fftn`."""
    return current_backend(x).ifftn(x, s=s, axes=axes, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def rfftn(
    x: Array | NativeArray,
    /,
    *,
    s: Optional[Sequence[int]] = None,
    axes: Optional[Sequence[int]] = None,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Transform of real input over ``axes``; the last axis keeps ``s[-1] // 2 + 1`` terms."""
    return current_backend(x).rfftn(x, s=s, axes=axes, norm=norm, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def irfftn(
    x: Array | NativeArray,
    /,
    *,
    s: Optional[Sequence[int]] = None,
    axes: Optional[Sequence[int]] = None,
    norm: Norm = "backward",
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`rfftn`: real output."""
    return current_backend(x).irfftn(x, s=s, axes=axes, norm=norm, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_device
def fftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: Any = None,
    device: Any = None,
    out: Optional[Array] = None,
) -> Array:
    """Sample frequencies of :func:`fft` for ``n`` samples ``d`` apart, in ``dtype`` (a 2024.12
    keyword the suite passes) or the default float dtype."""
    return current_backend().fftfreq(n, d=d, dtype=dtype, out=out)


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
@infer_device
def rfftfreq(
    n: int,
    /,
    *,
    d: float = 1.0,
    dtype: Any = None,
    device: Any = None,
    out: Optional[Array] = None,
) -> Array:
    """Sample frequencies of :func:`rfft` (the non-negative ones)."""
    return current_backend().rfftfreq(n, d=d, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def fftshift(
    x: Array | NativeArray,
    /,
    *,
    axes: int | Sequence[int] | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Zero frequency moved to the middle along ``axes`` (all when ``None``)."""
    return current_backend(x).fftshift(x, axes=axes, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def ifftshift(
    x: Array | NativeArray,
    /,
    *,
    axes: int | Sequence[int] | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Inverse of :func:`fftshift`."""
    return current_backend(x).ifftshift(x, axes=axes, out=out)
