"""JAX data-type functions (arrays are immutable: ``copy`` cannot be observed)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivycheck.runtime.backends.jax.primitives import target_dtype
from ivycheck.runtime.backends.jax.utility import truth


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    target = target_dtype(dtype)
    if target == jnp.bool_:
        return truth(jnp.asarray(x)).astype(target)
    return jnp.asarray(x).astype(target)
