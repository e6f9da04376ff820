"""JAX backend: no native `out` at all (deliberate mistakes: IVY002, IVY004, IVY014)."""

from typing import Optional

import ivy
import jax
import jax.numpy as jnp


# IVY002: JAX arrays are immutable; the attribute makes the wrapper hand over a buffer
# that is ignored, so `out` silently changes dtype.
def cosh(x: jax.Array, /, *, out: Optional[jax.Array] = None) -> jax.Array:
    return jnp.cosh(x)


cosh.support_native_out = True


# IVY004: jnp.add declares `out` only to raise when it is given.
def add_one(x: jax.Array, /, *, out: Optional[jax.Array] = None) -> jax.Array:
    return jnp.add(x, 1, out=out)


# IVY014: ensure_in_backend=True always raises on JAX.
def fill_ones(x: jax.Array, /, *, out: Optional[jax.Array] = None) -> jax.Array:
    ret = jnp.ones_like(x)
    if ivy.exists(out):
        return ivy.inplace_update(out, ret, ensure_in_backend=True)
    return ret


# Clean: `out` is data here and the API has no @handle_out_argument, so the attribute is
# not judged (see examples/functional/ivy/native_out_api.py).
def scatter_flat(
    indices: jax.Array,
    updates: jax.Array,
    /,
    *,
    size: Optional[int] = None,
    reduction: str = "sum",
    out: Optional[jax.Array] = None,
) -> jax.Array:
    target = out if out is not None else jnp.zeros(size, dtype=updates.dtype)
    if reduction == "sum":
        return target.at[indices].add(updates)
    return target.at[indices].set(updates)


scatter_flat.support_native_out = True
