"""JAX data-type functions (arrays are immutable: ``copy`` cannot be observed)."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from ivycheck.runtime.backends.jax.primitives import target_dtype
from ivycheck.runtime.backends.jax.utility import truth


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    target = target_dtype(dtype)
    if not isinstance(x, jax.Array):  # ``jnp.asarray`` of an array costs more than the cast
        x = jnp.asarray(x)
    if target == _BOOL:
        return truth(x).astype(target)
    return x.astype(target)


_BOOL = jnp.dtype(jnp.bool_)
