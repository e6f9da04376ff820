"""TensorFlow's ``linalg`` extension functions. ``tf.linalg`` has the decompositions; the
rest is composed from them as the standard defines it (norms from absolute values and
singular values, ``matrix_power`` by repeated squaring, ``pinv``/``matrix_rank`` from the SVD
with the standard's default cutoff, ``max(M, N) * eps`` -- ``tf.linalg.pinv``'s is ten times
that). Batch axes are broadcast explicitly: TensorFlow's solvers do not broadcast them."""

from __future__ import annotations

from typing import Any

import numpy as np
import tensorflow as tf

from ivycheck.runtime.backends._common.linalg import require_finite, solve_shapes
from ivycheck.runtime.backends.tensorflow import primitives
from ivycheck.runtime.backends.tensorflow._promotion import promoted
from ivycheck.runtime.backends.tensorflow.linear_algebra import matmul
from ivycheck.runtime.backends.tensorflow.statistical import sum as _sum

Arr = Any


def cross(x1: Arr, x2: Arr, /, *, axis: int = -1, out: Arr | None = None) -> Arr:
    """Componentwise (any dtype; ``tf.linalg.cross`` has a last-axis, real-only kernel)."""
    x1, x2 = promoted([x1, x2])
    shape = tf.broadcast_static_shape(x1.shape, x2.shape)
    x1, x2 = tf.broadcast_to(x1, shape), tf.broadcast_to(x2, shape)
    if shape[axis] != 3:
        raise ValueError(f"cross: axis {axis} has size {shape[axis]}, not 3")
    a0, a1, a2 = tf.unstack(x1, axis=axis)
    b0, b1, b2 = tf.unstack(x2, axis=axis)
    return tf.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=axis)


def det(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.det(x)


def diagonal(x: Arr, /, *, offset: int = 0, out: Arr | None = None) -> Arr:
    """The diagonal of the square block it runs through (an offset past the matrix gives an
    empty diagonal, as in NumPy, where ``diag_part`` raises)."""
    rows, cols = x.shape[-2], x.shape[-1]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    r0, c0 = max(-offset, 0), max(offset, 0)
    return tf.linalg.diag_part(x[..., r0 : r0 + n, c0 : c0 + n])


def eigh(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(tf.linalg.eigh(x))


def eigvalsh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.eigvalsh(x)


def inv(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.inv(x)


def _svdvals(x: Arr) -> Arr:
    return tf.linalg.svd(x, compute_uv=False)


def matrix_norm(
    x: Arr, /, *, keepdims: bool = False, ord: Any = "fro", out: Arr | None = None
) -> Arr:
    a = tf.abs(x)
    if ord == "fro":
        ret = tf.sqrt(tf.reduce_sum(a * a, axis=[-2, -1]))
    elif ord == "nuc":
        ret = tf.reduce_sum(_svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = _svdvals(x)
        ret = tf.reduce_max(s, axis=-1) if ord == 2 else tf.reduce_min(s, axis=-1)
    elif ord in (1, -1, np.inf, -np.inf):
        sums = tf.reduce_sum(a, axis=-2 if ord in (1, -1) else -1)
        ret = tf.reduce_max(sums, axis=-1) if ord > 0 else tf.reduce_min(sums, axis=-1)
    else:
        raise ValueError(f"matrix_norm: invalid ord {ord!r}")
    return ret[..., None, None] if keepdims else ret


def matrix_power(x: Arr, n: int, /, *, out: Arr | None = None) -> Arr:
    """By repeated squaring (the inverse's power for ``n < 0``; the identity for 0)."""
    if n == 0:
        eye = tf.eye(x.shape[-1], dtype=x.dtype)
        return tf.broadcast_to(eye, x.shape)
    base = tf.linalg.inv(x) if n < 0 else x
    n = abs(n)
    ret = None
    while n:
        if n & 1:
            ret = base if ret is None else matmul(ret, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return tf.identity(ret)


def _cutoff(s: Arr, rtol: Any, shape: tuple[int, ...]) -> Arr:
    """``rtol`` times the largest singular value, ``rtol`` by default ``max(M, N) * eps``."""
    if rtol is None:
        rtol = max(shape[-2:]) * np.finfo(s.dtype.as_numpy_dtype).eps
    rtol = tf.cast(rtol, s.dtype)
    return rtol[..., None] * tf.reduce_max(s, axis=-1, keepdims=True)


def matrix_rank(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    s = _svdvals(x)
    if s.shape[-1] == 0:
        return tf.zeros(s.shape[:-1], tf.int64)
    kept = s > _cutoff(s, rtol, tuple(x.shape))
    return tf.reduce_sum(tf.cast(kept, tf.int64), axis=-1)


def outer(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = promoted([x1, x2])
    return x1[:, None] * x2[None, :]


def pinv(x: Arr, /, *, rtol: Any = None, out: Arr | None = None) -> Arr:
    """``V diag(1/s) U^H`` over the singular values above the cutoff (complex too)."""
    parts = (tf.math.real(x), tf.math.imag(x)) if x.dtype.is_complex else (x,)
    require_finite("pinv", all(bool(tf.reduce_all(tf.math.is_finite(p))) for p in parts))
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    if s.shape[-1] == 0:
        return tf.zeros((*x.shape[:-2], x.shape[-1], x.shape[-2]), x.dtype)
    kept = s > _cutoff(s, rtol, tuple(x.shape))
    s_inv = tf.where(kept, 1 / tf.where(kept, s, tf.ones_like(s)), tf.zeros_like(s))
    return tf.linalg.matmul(v * tf.cast(s_inv, x.dtype)[..., None, :], u, adjoint_b=True)


def qr(x: Arr, /, *, mode: Any = "reduced") -> tuple[Arr, ...]:
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', not {mode!r}")
    return tuple(tf.linalg.qr(x, full_matrices=mode == "complete"))


def slogdet(x: Arr, /) -> tuple[Arr, ...]:
    """``logabsdet`` real-valued, as the standard says (TensorFlow gives it x's complex dtype,
    with a zero imaginary part)."""
    sign, logabsdet = tf.linalg.slogdet(x)
    return sign, tf.math.real(logabsdet) if logabsdet.dtype.is_complex else logabsdet


def solve(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = promoted([x1, x2])
    shape1, shape2, vector = solve_shapes(tuple(x1.shape), tuple(x2.shape))
    a = tf.broadcast_to(x1, shape1)
    if vector:
        b = tf.broadcast_to(x2, shape1[:-1])[..., None]
        return tf.linalg.solve(a, b)[..., 0]
    return tf.linalg.solve(a, tf.broadcast_to(x2, shape2))


def svd(x: Arr, /, *, full_matrices: bool = True) -> tuple[Arr, ...]:
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return u, s, tf.linalg.adjoint(v)


def svdvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _svdvals(x)


def trace(x: Arr, /, *, offset: int = 0, dtype: Any = None, out: Arr | None = None) -> Arr:
    """``tf.linalg.trace`` (the main diagonal, no ``dtype``) when ``x`` already has the
    result dtype; otherwise the diagonal cast to it, then summed (casting the diagonal
    only, not the matrix)."""
    if offset == 0 and x.dtype == (primitives.accumulation(x.dtype) if dtype is None else dtype):
        return tf.linalg.trace(x)
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def vector_norm(
    x: Arr, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2, out: Arr | None = None
) -> Arr:
    a = tf.abs(x)
    if axis is None:
        flat = tf.reshape(a, [-1])
        ret = vector_norm(flat, axis=0, ord=ord)
        return tf.reshape(ret, [1] * x.shape.rank) if keepdims else ret
    if ord == np.inf:
        return tf.reduce_max(a, axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return tf.reduce_min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return tf.reduce_sum(tf.cast(a != 0, a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return tf.reduce_sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return tf.sqrt(tf.reduce_sum(a * a, axis=axis, keepdims=keepdims))
    p = tf.cast(ord, a.dtype)
    return tf.reduce_sum(a**p, axis=axis, keepdims=keepdims) ** (1 / p)


def eig(x: Arr, /) -> tuple[Arr, ...]:
    return tuple(tf.linalg.eig(x))


def eigvals(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.eigvals(x)
