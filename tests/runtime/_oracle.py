"""NumPy as the oracle for the main-namespace tests: small arrays of a drawn dtype."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivycheck.runtime as ivy

DTYPES = ("bool", "int8", "uint8", "int32", "int64", "uint16", "uint64", "float32", "float64")
NUMERIC = DTYPES[1:]
REAL_FLOAT = ("float32", "float64")


def arrays(dtypes: tuple[str, ...] = NUMERIC, min_dims: int = 0, min_side: int = 0) -> Any:
    """Arrays of up to 3 axes of length up to 4, finite values (NaN tested on purpose).

    No subnormal floats: XLA (JAX) and TensorFlow on CPU flush them to zero when they compare,
    so sorting or deduplicating ``[0, 6e-45]`` differs from NumPy there by the backend's design.
    """
    return st.sampled_from(dtypes).flatmap(
        lambda d: hnp.arrays(
            np.dtype(d),
            hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=min_side, max_side=4),
            elements={
                "allow_nan": False,
                "allow_subnormal": False,
                "min_value": -100,
                "max_value": 100,
            }
            if d.startswith("float")
            else None,
        )
    )


def check(got: Any, expected: np.ndarray, *, exact: bool = True) -> None:
    """``got`` (an ivy.Array) has NumPy's dtype, shape and values."""
    assert isinstance(got, ivy.Array)
    assert str(got.dtype) == str(expected.dtype), (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if exact:
        np.testing.assert_array_equal(ivy.to_numpy(got), expected)
    else:
        np.testing.assert_allclose(ivy.to_numpy(got), expected, rtol=1e-4, atol=1e-4)
