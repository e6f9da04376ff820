"""JAX backend: elementwise functions (JAX has no `out`; the wrapper writes it)."""

from typing import Optional

import jax
import jax.numpy as jnp


def tan(x: jax.Array, /, *, out: Optional[jax.Array] = None) -> jax.Array:
    return jnp.tan(x)


def sin(x: jax.Array, /, *, out: Optional[jax.Array] = None) -> jax.Array:
    return jnp.sin(x)
