"""TensorFlow's ``fft`` extension functions. ``tf.signal`` transforms only the innermost axis
and has no ``norm``: each transform moves its axis last, crops or zero-pads it to the length
asked for, transforms, scales by the standard's normalisation (``_linalg.norm_factor``) and
moves the axis back; the n-dimensional ones are 1-d transforms axis after axis, ``hfft`` and
``ihfft`` are ``irfft``/``rfft`` of the conjugate, as the standard defines them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.backends._common.array_api_fft import checked_points
from ivycheck.runtime.backends._common.linalg import fft_axes, norm_factor, swap_norm
from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.backends.tensorflow._promotion import to_last
from ivycheck.runtime.dtypes import default_float

Arr = Any


def _dtype(dtype: Any) -> Any:
    """The frequencies' dtype: the one asked for, else the default float dtype."""
    return primitives.native_dtype(default_float()) if dtype is None else dtype


def _resized(x: Arr, n: int) -> Arr:
    """``x`` cropped or zero-padded to ``n`` along its last axis."""
    size = x.shape[-1]
    if n <= size:
        return x[..., :n]
    pad = [[0, 0]] * (x.shape.rank - 1) + [[0, n - size]]
    return tf.pad(x, pad)


def _points(n: int) -> int:
    """A transform length, checked: TensorFlow aborts the process on a zero-length FFT."""
    return checked_points(n)


def _complex(x: Arr) -> Arr:
    """A real input as complex of its precision, as NumPy reads it (``tf.signal.fft`` has
    complex kernels only)."""
    if x.dtype.is_complex:
        return x
    return tf.cast(x, tf.complex128 if x.dtype == tf.float64 else tf.complex64)


def _along(x: Arr, axis: int, fn: Callable[[Arr], Arr]) -> Arr:
    (axis,) = normalize_axes(axis, x.shape.rank)
    moved, inverse = to_last(x, axis)
    return tf.transpose(fn(moved), inverse)


def _scaled(x: Arr, factor: float) -> Arr:
    return x if factor == 1.0 else x * tf.constant(factor, dtype=x.dtype)


def fft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    def transform(v: Arr) -> Arr:
        length = _points(v.shape[-1] if n is None else n)
        return _scaled(tf.signal.fft(_resized(v, length)), norm_factor(norm, length, inverse=False))

    return _along(_complex(x), axis, transform)


def ifft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    def transform(v: Arr) -> Arr:
        length = _points(v.shape[-1] if n is None else n)
        factor = norm_factor(norm, length, inverse=True) * length  # tf.signal.ifft divides
        return _scaled(tf.signal.ifft(_resized(v, length)), factor)

    return _along(_complex(x), axis, transform)


def rfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    def transform(v: Arr) -> Arr:
        length = _points(v.shape[-1] if n is None else n)
        complex_dtype = tf.complex128 if v.dtype == tf.float64 else tf.complex64
        ret = tf.signal.rfft(
            _resized(v, length),
            fft_length=[length],
        )
        return _scaled(tf.cast(ret, complex_dtype), norm_factor(norm, length, inverse=False))

    return _along(x, axis, transform)


def irfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    def transform(v: Arr) -> Arr:
        length = _points(2 * (v.shape[-1] - 1) if n is None else n)
        half = length // 2 + 1
        v = _resized(v, half)
        ret = tf.signal.irfft(v, fft_length=[length])
        return _scaled(ret, norm_factor(norm, length, inverse=True) * length)

    return _along(x, axis, transform)


def hfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    return irfft(tf.math.conj(x), n=n, axis=axis, norm=swap_norm(norm))


def ihfft(
    x: Arr, /, *, n: Any = None, axis: int = -1, norm: str = "backward", out: Any = None
) -> Arr:
    return tf.math.conj(rfft(x, n=n, axis=axis, norm=swap_norm(norm)))


def _each(
    fn: Callable[..., Arr], x: Arr, axes: list[int], lengths: list[int | None], norm: str
) -> Arr:
    for axis, n in zip(axes, lengths, strict=True):
        x = fn(x, n=n, axis=axis, norm=norm)
    return x


def fftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    chosen, lengths = fft_axes(x.shape.rank, s, axes)
    return _each(fft, x, chosen, lengths, norm)


def ifftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    chosen, lengths = fft_axes(x.shape.rank, s, axes)
    return _each(ifft, x, chosen, lengths, norm)


def rfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    """The real transform over the last axis, then complex ones over the others."""
    chosen, lengths = fft_axes(x.shape.rank, s, axes)
    x = rfft(x, n=lengths[-1], axis=chosen[-1], norm=norm)
    return _each(fft, x, chosen[:-1], lengths[:-1], norm)


def irfftn(
    x: Arr, /, *, s: Any = None, axes: Any = None, norm: str = "backward", out: Any = None
) -> Arr:
    """Complex inverses over all axes but the last, then the real inverse over the last."""
    chosen, lengths = fft_axes(x.shape.rank, s, axes)
    x = _each(ifft, x, chosen[:-1], lengths[:-1], norm)
    return irfft(x, n=lengths[-1], axis=chosen[-1], norm=norm)


def _frequencies(indices: list[int], n: int, d: float, dtype: Any) -> Arr:
    values = tf.constant(indices, tf.float64) / (d * n)
    return tf.cast(values, _dtype(dtype))


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return _frequencies([*range((n - 1) // 2 + 1), *range(-(n // 2), 0)], n, d, dtype)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, out: Any = None) -> Arr:
    return _frequencies(list(range(n // 2 + 1)), n, d, dtype)


def _shifted(x: Arr, axes: Any, sign: int) -> Arr:
    chosen = list(range(x.shape.rank)) if axes is None else list(normalize_axes(axes, x.shape.rank))
    if not chosen:
        return tf.identity(x)
    return tf.roll(x, shift=[sign * (x.shape[a] // 2) for a in chosen], axis=chosen)


def fftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _shifted(x, axes, 1)


def ifftshift(x: Arr, /, *, axes: Any = None, out: Any = None) -> Arr:
    return _shifted(x, axes, -1)
