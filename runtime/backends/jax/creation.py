"""JAX creation functions."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.sizes import check_range, check_size
from ivycheck.runtime.backends.jax import primitives
from ivycheck.runtime.info import as_sequence

Arr = Any


def zeros(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("zeros", shape, dtype)  # XLA aborts the process on an overflowing size
    return jnp.zeros(shape, dtype=dtype)


def ones(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("ones", shape, dtype)  # XLA aborts the process on an overflowing size
    return jnp.ones(shape, dtype=dtype)


def empty(shape: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    check_size("empty", shape, dtype)  # XLA aborts the process on an overflowing size
    return jnp.empty(shape, dtype=dtype)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    dtype = dtype or primitives.default_native(fill_value)
    check_size("full", shape, dtype)
    return jnp.full(shape, fill_value, dtype=dtype)


def arange(
    start: Any, stop: Any = None, step: Any = 1, *, dtype: Any = None, out: Arr | None = None
) -> Arr:
    if stop is None:
        start, stop = 0, start
    dtype = dtype or primitives.default_native(start, stop, step)
    check_range("arange", start, stop, step, dtype)
    if type(start) is int and start == 0 and type(step) is int and step == 1:
        return jnp.arange(stop, dtype=dtype)  # the same values; jnp's quick form (about 5x)
    return jnp.arange(start, stop, step, dtype=dtype)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    *,
    endpoint: bool = True,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("linspace", num, dtype)
    return jnp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)


def zeros_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.zeros_like(x, dtype=dtype)


def ones_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.ones_like(x, dtype=dtype)


def copy_array(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return jnp.array(x, copy=True)


def empty_like(x: Arr, /, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.empty_like(x, dtype=dtype)


def full_like(x: Arr, /, fill_value: Any, *, dtype: Any = None, out: Arr | None = None) -> Arr:
    return jnp.full_like(x, fill_value, dtype=dtype)


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    out: Arr | None = None,
) -> Arr:
    check_size("eye", (n_rows, n_rows if n_cols is None else n_cols), dtype)
    return jnp.eye(n_rows, n_cols, k=k, dtype=dtype)


def from_dlpack(x: Any, /, *, copy: bool | None = None, out: Arr | None = None) -> Arr:
    """Through :func:`dlpack.importable`: JAX's importer refuses strides that are not
    compact, where the standard asks for a copy, and copies a buffer off a 64-byte boundary
    itself, where ``copy=False`` must raise."""
    source = dlpack.importable(x, copy, dlpack.aligned_c_contiguous)
    ret = jax.dlpack.from_dlpack(source)
    return jnp.array(ret, copy=True) if copy and source is x else ret


def meshgrid(*arrays: Arr, indexing: str = "xy") -> Any:
    return as_sequence(jnp.meshgrid(*arrays, indexing=indexing))


def tril(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return jnp.tril(x, k)


def triu(x: Arr, /, *, k: int = 0, out: Arr | None = None) -> Arr:
    return jnp.triu(x, k)
