"""Manipulation and creation functions against NumPy on the four backends; the view
functions stay views (a write through them reaches the base) and take ``axis`` positionally."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ivycheck.runtime as ivy
from tests.runtime._oracle import DTYPES, arrays, check

FAST = settings(  # the backend fixture only selects the backend: it holds for every example
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(data=st.data())
def test_joining_and_repeating_match_numpy(backend: str, data: st.DataObject) -> None:
    x = data.draw(arrays(DTYPES, min_dims=1))
    # A second operand of the same kind: mixed kinds have no promotion in the standard.
    partner = {"b": "bool", "i": "int8", "u": "uint8", "f": "float32"}[x.dtype.kind]
    y = np.resize(data.draw(arrays((partner,))), x.shape).astype(partner)
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    a, b, nb = ivy.asarray(x), ivy.asarray(y), y
    check(ivy.concat([a, b], axis=axis), np.concatenate([x, nb], axis=axis))
    check(ivy.concat([a, b], axis=None), np.concatenate([x, nb], axis=None))
    check(ivy.stack([a, b], axis=axis), np.stack([x, nb], axis=axis))
    check(ivy.repeat(a, 2, axis=axis), np.repeat(x, 2, axis=axis))
    check(ivy.roll(a, 3, axis=axis), np.roll(x, 3, axis=axis))
    check(ivy.roll(a, -1), np.roll(x, -1))
    check(ivy.tile(a, (2, 1)), np.tile(x, (2, 1)))
    for got, expected in zip(ivy.unstack(a, axis=axis), np.unstack(x, axis=axis), strict=True):
        check(got, expected)


def test_view_functions_stay_views(backend: str) -> None:
    base = ivy.asarray([[1.0, 2.0, 3.0]])
    ivy.expand_dims(base, 0)[0, 0, 1] = 20.0  # axis given positionally, as the standard says
    ivy.squeeze(base, 0)[2] = 30.0
    ivy.unstack(base, axis=1)[0][...] = 10.0
    np.testing.assert_array_equal(ivy.to_numpy(base), [[10.0, 20.0, 30.0]])
    view = ivy.broadcast_to(ivy.asarray([1.0, 2.0]), (3, 2))
    check(view, np.broadcast_to(np.array([1.0, 2.0], np.float32), (3, 2)))
    grids = ivy.broadcast_arrays(ivy.asarray([[1], [2]]), ivy.asarray([1, 2, 3]))
    assert [g.shape for g in grids] == [(2, 3), (2, 3)]


def test_creation_defaults_follow_the_standard(backend: str) -> None:
    assert ivy.arange(0, step=1.0).dtype == "float32"
    assert ivy.arange(3).dtype == "int64"
    assert ivy.full((2,), True).dtype == "bool"
    assert ivy.full((2,), 1j).dtype == ivy.dtypes.DEFAULT_COMPLEX
    check(ivy.eye(3, 4, k=1, dtype="int8"), np.eye(3, 4, k=1, dtype=np.int8))
    x = np.arange(12, dtype=np.uint16).reshape(3, 4)
    check(ivy.tril(ivy.asarray(x), k=-1), np.tril(x, -1))
    check(ivy.triu(ivy.asarray(x), k=1), np.triu(x, 1))
    check(ivy.full_like(ivy.asarray(x), 7), np.full_like(x, 7))
    for got, expected in zip(
        ivy.meshgrid(ivy.arange(2), ivy.arange(3), indexing="ij"),
        np.meshgrid(np.arange(2), np.arange(3), indexing="ij"),
        strict=True,
    ):
        check(got, expected)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint16, np.float32, np.complex128])
@pytest.mark.parametrize(
    ("shape", "repeats", "axis"),
    [((0, 2), [1, 1], 1), ((0, 3), 2, 0), ((2, 0), [1, 3], 0), ((2, 0), [2], 0), ((0,), [], 0)],
)
def test_repeat_of_empty_arrays_has_numpys_shape(
    backend: str, dtype: type, shape: tuple[int, ...], repeats: Any, axis: int
) -> None:
    x = np.zeros(shape, dtype=dtype)
    counts = np.asarray(repeats, dtype=np.int64) if isinstance(repeats, list) else repeats
    argument = ivy.asarray(counts) if isinstance(repeats, list) else repeats
    got = ivy.repeat(ivy.asarray(x), argument, axis=axis)
    want = np.repeat(x, counts, axis=axis)
    assert got.shape == want.shape and ivy.to_numpy(got).dtype == want.dtype


@pytest.mark.parametrize("dtype", [np.uint16, np.uint32, np.uint64])
def test_reversing_functions_take_every_unsigned_dtype(backend: str, dtype: type) -> None:
    """PyTorch has no flip kernels for uint16-64; the result keeps the dtype and values,
    and stays a view: a write through it reaches the base, as in NumPy."""
    x = (np.arange(6, dtype=np.uint64).reshape(2, 3) + np.uint64(2**63 - 2)).astype(dtype)
    a = ivy.asarray(x)
    check(ivy.flip(a), np.flip(x))
    check(ivy.flip(a, axis=1), np.flip(x, axis=1))
    check(ivy.rot90(a), np.rot90(x))
    check(ivy.flipud(a), np.flipud(x))
    check(ivy.fliplr(a), np.fliplr(x))
    view = ivy.flip(a, axis=0)
    view[0, 0] = 7
    assert ivy.to_numpy(a)[1, 0] == 7
