"""The truth tests (``all``, ``any``, ``nonzero``, a cast to bool) are NumPy's on every
backend, subnormals included (XLA on CPU flushes them to zero in comparisons; the standard
counts any nonzero value as true)."""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy

DTYPES = (np.float16, np.float32, np.float64, np.complex64, np.complex128)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_truth_of_subnormals_signed_zeros_and_nan(backend: str, dtype: type) -> None:
    tiny = np.finfo(dtype).smallest_subnormal
    for values in ([tiny], [tiny, 1.0], [-0.0], [-0.0, np.nan], [np.nan], [0.0, tiny]):
        x = np.array(values, dtype=dtype)
        assert bool(ivy.all(ivy.asarray(x))) == bool(np.all(x)), values
        assert bool(ivy.any(ivy.asarray(x))) == bool(np.any(x)), values
        as_bool = ivy.astype(ivy.asarray(x), ivy.bool)
        np.testing.assert_array_equal(ivy.to_numpy(as_bool), x.astype(bool), str(values))
        (positions,) = ivy.nonzero(ivy.asarray(x))
        np.testing.assert_array_equal(ivy.to_numpy(positions), np.nonzero(x)[0], str(values))


def test_truth_along_an_axis_keeps_numpys_shape(backend: str) -> None:
    x = np.array([[0.0, 1e-40], [2.0, 3.0]], dtype=np.float32)
    for axis in (0, 1, None):
        got = ivy.all(ivy.asarray(x), axis=axis, keepdims=True)
        np.testing.assert_array_equal(ivy.to_numpy(got), np.all(x, axis=axis, keepdims=True))
        got = ivy.any(ivy.asarray(x), axis=axis)
        np.testing.assert_array_equal(ivy.to_numpy(got), np.any(x, axis=axis))
