"""JAX primitives: arrays are immutable, so every write rebinds (functional scatter)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ivycheck.runtime.backends._common import dlpack
from ivycheck.runtime.backends._common.package import (
    remembered_accumulation,
    remembered_defaults,
    remembered_dtypes,
    remembered_targets,
)
from ivycheck.runtime.backends._common.primitives import Index
from ivycheck.runtime.dtypes import Dtype

NAME = "jax"
NATIVE_TYPES: tuple[type, ...] = (jax.Array,)
NUMPY_VIEWS = False
ERROR_TYPES: dict[type[BaseException], tuple[type[Exception], ...]] = {}
NEGATIVE_STEPS = True


native_dtype = remembered_dtypes(jnp.dtype)
"""``jnp.dtype`` for a dtype name (float64 needs ``jax_enable_x64``, set with the backend)."""
default_native = remembered_defaults(native_dtype)
"""The native default dtype of Python values (``arange``, ``full``)."""
target_dtype = remembered_targets(native_dtype)
"""The native dtype of any dtype argument (``astype``)."""
accumulation = remembered_accumulation(native_dtype, str)
"""The native dtype ``sum``/``prod``/``trace`` return by default for a native dtype."""


def dtype_name(x: Any) -> str:
    """The dtype name."""
    return str(x.dtype)


def shape(x: Any) -> tuple[int, ...]:
    """The shape as a tuple of ints."""
    return tuple(x.shape)


def asarray(obj: Any, dtype: Dtype | str | None, copy: bool | None) -> Any:
    """``jnp.array``; ``copy=True`` gives a fresh buffer, ``copy=False`` shares the memory of
    anything else or raises (``dlpack.shared_view``)."""
    if copy is False and not isinstance(obj, jax.Array):
        return jax.dlpack.from_dlpack(
            dlpack.shared_view(obj, None if dtype is None else str(dtype))
        )
    return jnp.array(
        obj,
        dtype=None if dtype is None else str(dtype),
        copy=bool(copy) or not isinstance(obj, jax.Array),
    )


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy copy."""
    return np.array(x, copy=True)


def copy(x: Any) -> Any:
    """A fresh buffer."""
    return jnp.array(x, copy=True)


def cast(x: Any, dtype: Dtype | str) -> Any:
    """Unsafe cast."""
    return jnp.asarray(x).astype(str(dtype))


def broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """``jnp.broadcast_to``."""
    return jnp.broadcast_to(x, shape)


def writable(x: Any) -> bool:
    """Never: JAX arrays are immutable."""
    return False


def write(x: Any, val: Any) -> None:
    """Unreachable: ``writable`` is always false."""
    raise NotImplementedError("JAX arrays cannot be written in place")


def set_region(x: Any, index: Index, val: Any) -> Any:
    """One functional scatter: ``x.at[index].set(val)``."""
    return x.at[index].set(val)


def take(x: Any, index: Index) -> Any:
    """Gather with a multi-index."""
    return x[index]


def version(x: Any) -> object:
    """Immutable: identity alone tells whether the base changed."""
    return 0


def shares_memory(a: Any, b: Any) -> bool:
    """JAX has no observable views."""
    return False


def is_native_view(ret: Any, base: Any) -> bool:
    """JAX has no native views: every view is tracked."""
    return False


def check_native_out(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], *, out: Any
) -> Callable[..., Any] | None:
    """Unreachable: no JAX function carries ``support_native_out``."""
    return None


SHARED_LAYOUT = "aval"
"""An attribute JAX shares between the arrays of one shape and dtype: one object in both
arrays means one shape and one dtype (the hot path of ``out=`` reads it before
``same_layout``)."""


def same_layout(a: Any, b: Any) -> bool:
    """Whether two arrays have one shape and one dtype (the write of a result into ``out``
    asks on every call). JAX shares one abstract value between the results of one shape
    and dtype: ``aval`` read first is a third of the cost of comparing shapes and dtypes."""
    if a.aval is b.aval:
        return True
    dtype = a.dtype
    return a.shape == b.shape and (dtype is b.dtype or dtype == b.dtype)


def out_checks_itself(fn: Callable[..., Any]) -> bool:
    """Never: no JAX function carries ``support_native_out``."""
    return False


def strides(x: Any) -> tuple[int, ...] | None:
    """Arrays are contiguous."""
    return None


def to_dlpack(x: Any, kwargs: dict[str, Any]) -> Any:
    """The array's own DLPack exporter."""
    return x.__dlpack__(**kwargs)
