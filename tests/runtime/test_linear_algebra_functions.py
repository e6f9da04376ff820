"""matmul/tensordot/vecdot on mixed dtypes give the standard's result dtype (NumPy alone
makes int32 with float32 a float64) and NumPy's values; vecdot never broadcasts the
contracted axis."""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy

A = np.arange(6, dtype=np.int32).reshape(2, 3)
B = np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2)


def test_mixed_dtypes_promote_as_the_standard(backend: str) -> None:
    a, b = ivy.asarray(A), ivy.asarray(B)
    got = ivy.matmul(a, b)
    assert got.dtype == ivy.float32
    np.testing.assert_allclose(ivy.to_numpy(got), A.astype(np.float32) @ B, rtol=1e-6)
    assert ivy.tensordot(a, b, axes=1).dtype == ivy.float32
    got = ivy.vecdot(a, ivy.asarray(B.T))
    assert got.dtype == ivy.float32
    np.testing.assert_allclose(ivy.to_numpy(got), np.sum(A * B.T, axis=-1), rtol=1e-6)


def test_matmul_out_keeps_its_dtype(backend: str) -> None:
    out = ivy.zeros((2, 2), dtype="float64")
    ret = ivy.matmul(ivy.asarray(A), ivy.asarray(B), out=out)
    assert ret is out and out.dtype == ivy.float64
    np.testing.assert_allclose(ivy.to_numpy(out), A.astype(np.float32) @ B, rtol=1e-6)


@pytest.mark.parametrize(("s1", "s2"), [((2, 1), (2, 3)), ((3,), (4,))])
def test_vecdot_contracted_sizes_must_match(backend: str, s1: tuple, s2: tuple) -> None:
    with pytest.raises(ValueError):
        ivy.vecdot(ivy.ones(s1), ivy.ones(s2))


def test_vecdot_broadcasts_other_axes(backend: str) -> None:
    got = ivy.vecdot(ivy.ones((4, 1, 3)), ivy.ones((2, 3)), axis=-1)
    assert got.shape == (4, 2)
    np.testing.assert_array_equal(ivy.to_numpy(got), np.full((4, 2), 3.0, np.float32))


def test_vecdot_broadcasts_a_size_one_axis_to_size_zero(backend: str) -> None:
    """Broadcasting 1 against 0 gives 0 (NumPy's rule), never 1."""
    got = ivy.vecdot(ivy.ones((1, 0)), ivy.ones((0, 0)))
    assert got.shape == (0,)
