"""Searching, sorting, set, indexing and truth-test functions against NumPy on the four
backends (int64 indices, first maximum, stable descending sort, NaNs distinct in sets)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ivycheck.runtime as ivy
from tests.runtime._oracle import DTYPES, NUMERIC, arrays, check

FAST = settings(  # the backend fixture only selects the backend: it holds for every example
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(data=st.data())
def test_search_and_sort_match_numpy(backend: str, data: st.DataObject) -> None:
    x = data.draw(arrays(NUMERIC, min_dims=1, min_side=1))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    a = ivy.asarray(x)
    check(ivy.argmax(a, axis=axis), np.argmax(x, axis=axis))
    check(ivy.argmin(a, axis=None, keepdims=True), np.argmin(x, axis=None, keepdims=True))
    check(ivy.sort(a, axis=axis), np.sort(x, axis=axis, kind="stable"))
    check(ivy.argsort(a, axis=axis), np.argsort(x, axis=axis, kind="stable"))
    flipped = np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)
    check(ivy.argsort(a, axis=axis, descending=True), x.shape[axis] - 1 - flipped)
    for got, expected in zip(ivy.nonzero(a), np.nonzero(x), strict=True):
        check(got, expected)
    check(ivy.all(a, axis=axis), np.all(x, axis=axis))
    check(ivy.any(a, axis=None), np.asarray(np.any(x)))
    indices = np.array([0, x.shape[axis] - 1, 0])
    check(ivy.take(a, ivy.asarray(indices), axis=axis), np.take(x, indices, axis=axis))
    ordered = np.sort(x.ravel())
    check(
        ivy.searchsorted(ivy.asarray(ordered), a, side="right"),
        np.searchsorted(ordered, x, "right"),
    )


@FAST
@given(x=arrays(DTYPES, min_dims=1))
def test_unique_matches_numpy(backend: str, x: np.ndarray) -> None:
    got = ivy.unique_all(ivy.asarray(x))
    expected = np.unique_all(x)
    for field in ("values", "indices", "inverse_indices", "counts"):
        check(getattr(got, field), getattr(expected, field))
    check(ivy.unique_counts(ivy.asarray(x)).counts, expected.counts)
    check(ivy.sort(ivy.unique_values(ivy.asarray(x))), expected.values)


def test_nans_are_distinct_and_argmax_finds_the_first(backend: str) -> None:
    x = ivy.asarray(np.array([1.0, np.nan, 0.5, np.nan], dtype=np.float32))
    assert ivy.unique_values(x).shape == (4,)
    assert int(ivy.argmax(x)) == 1
    np.testing.assert_array_equal(ivy.to_numpy(ivy.argsort(x))[:2], [2, 0])
    # A NaN after the extreme, ties before it, along an axis: NumPy's first NaN / first tie.
    m = np.array([[3.0, 3.0, np.nan, 1.0], [0.0, 2.0, 2.0, 0.0]], dtype=np.float32)
    for name in ("argmax", "argmin"):
        for axis in (None, 0, 1):
            want = getattr(np, name)(m, axis=axis)
            got = getattr(ivy, name)(ivy.asarray(m), axis=axis)
            np.testing.assert_array_equal(ivy.to_numpy(got), want, err_msg=f"{name} {axis}")
