"""JAX data-type functions (arrays are immutable: ``copy`` cannot be observed)."""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from ivycheck.runtime.backends.jax.primitives import native_dtype
from ivycheck.runtime.dtypes import as_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    return jnp.asarray(x).astype(native_dtype(as_dtype(dtype)))
