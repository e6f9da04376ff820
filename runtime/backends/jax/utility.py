"""JAX truth tests."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

Arr = Any


def truth(x: Any) -> Any:
    """``x != 0`` read from the bits for floating types.

    XLA on CPU flushes subnormals to zero in comparisons, so ``jnp.all([1e-40])`` and
    ``jnp.asarray([1e-40]).astype(bool)`` are ``False``; the standard (and every other
    backend) counts a subnormal as true. Masking the sign bit keeps ``-0.0`` false and NaN
    true. Every truth test of the backend (``all``, ``any``, ``nonzero``, a cast to bool)
    goes through here (TensorFlow's twin: ``backends/tensorflow/utility.truth``).
    """
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        return truth(jnp.real(x)) | truth(jnp.imag(x))
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    width = jnp.dtype(x.dtype).itemsize * 8
    unsigned = jnp.dtype(f"uint{width}")
    bits = jax.lax.bitcast_convert_type(x, unsigned)
    return (bits & unsigned.type((1 << (width - 1)) - 1)) != 0


def all(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return jnp.all(truth(x), axis=axis, keepdims=keepdims)


def any(x: Arr, /, *, axis: Any = None, keepdims: bool = False, out: Arr | None = None) -> Arr:
    return jnp.any(truth(x), axis=axis, keepdims=keepdims)


def diff(
    x: Arr,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Arr | None = None,
    append: Arr | None = None,
    out: Arr | None = None,
) -> Arr:
    return jnp.diff(x, n=n, axis=axis, prepend=prepend, append=append)
