"""Per-call overhead of the runtime against the raw backend call; run by hand.

    .venv/bin/python benchmarks/runtime_overhead.py [--number N] [--repeat R]

Prints, per backend, nanoseconds per ``ivy.add(x, y)`` on shape-(8,) float32 arrays next to
the raw backend call, and on JAX the cost of an in-place update through a 3-deep tracked view
chain next to a direct ``.at[].set``. Minimum over repeats (the least disturbed run).
"""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import ivycheck.runtime as ivy


def ns_per_call(fn: Callable[[], Any], number: int, repeat: int) -> float:
    """Best-of-``repeat`` nanoseconds per call."""
    fn()  # warm up (JIT caches, lazy imports)
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def raw_add(backend: str) -> tuple[Callable[[], Any], Any]:
    """The raw backend call on native arrays, and the native add for reference."""
    a = np.ones(8, dtype=np.float32)
    if backend == "numpy":
        x, y = a.copy(), a.copy()
        return (lambda: np.add(x, y)), None
    if backend == "torch":
        import torch

        tx, ty = torch.ones(8), torch.ones(8)
        return (lambda: torch.add(tx, ty)), None
    if backend == "jax":
        import jax.numpy as jnp

        jx, jy = jnp.ones(8, dtype=jnp.float32), jnp.ones(8, dtype=jnp.float32)
        return (lambda: jnp.add(jx, jy)), None
    import tensorflow as tf

    fx, fy = tf.ones(8), tf.ones(8)
    return (lambda: tf.add(fx, fy)), None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"{'backend':<11} {'ivy.add ns':>11} {'raw ns':>9} {'ratio':>6}")
    for backend in ("numpy", "torch", "jax", "tensorflow"):
        with ivy.using_backend(backend):
            x, y = ivy.ones(8), ivy.ones(8)
            wrapped = ns_per_call(lambda x=x, y=y: ivy.add(x, y), args.number, args.repeat)
            raw = ns_per_call(raw_add(backend)[0], args.number, args.repeat)
            print(f"{backend:<11} {wrapped:>11.0f} {raw:>9.0f} {wrapped / raw:>6.2f}")

    with ivy.using_backend("jax"):
        import jax.numpy as jnp

        base = ivy.zeros((64, 64))
        view = ivy.flip(ivy.permute_dims(base[8:40, ::2], (1, 0)), axis=0)  # 3-deep chain
        value = ivy.ones(view.shape)
        number = max(args.number // 20, 100)
        tracked = ns_per_call(lambda: ivy.inplace_update(view, value), number, args.repeat)
        native = jnp.zeros((64, 64))
        ones = jnp.ones((32, 32))
        direct = ns_per_call(
            lambda: native.at[8:40, ::2].set(jnp.flip(ones, 0).T), number, args.repeat
        )
        print()
        print(f"{'jax update through 3-deep view':<34} {tracked:>9.0f} ns")
        print(f"{'jax direct .at[].set (same region)':<34} {direct:>9.0f} ns")
        print(f"{'ratio':<34} {tracked / direct:>9.2f}")


if __name__ == "__main__":
    main()
