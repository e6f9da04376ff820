"""Shared fixtures: every behavioural test runs on all four real backends."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import ivycheck.runtime as ivy

BACKENDS = ("numpy", "torch", "jax", "tensorflow")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Set a backend for the test and restore the previous one afterwards."""
    with ivy.using_backend(request.param):
        yield request.param


def npy(x: object) -> np.ndarray:
    """NumPy copy of an ivy/native array, for comparisons with the NumPy oracle."""
    return ivy.to_numpy(x)


def native_of(name: str, values: np.ndarray) -> object:
    """A native array of backend ``name`` (not wrapped in ``ivy.Array``)."""
    if name == "numpy":
        return values.copy()
    if name == "torch":
        import torch

        return torch.tensor(values)
    if name == "jax":
        import jax.numpy as jnp

        return jnp.asarray(values)
    import tensorflow as tf

    return tf.constant(values)
