"""Reductions against NumPy on the four backends: dtypes per the standard (uint8 sums to
uint64 on every backend), ``axis=()`` reduces nothing, ``out`` keeps its buffer and dtype."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ivycheck.runtime as ivy
from tests.runtime._oracle import NUMERIC, REAL_FLOAT, arrays, check

FAST = settings(  # the backend fixture holds for every example: it only selects the backend
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _axis(x: np.ndarray) -> st.SearchStrategy[object]:
    axes = st.integers(0, x.ndim - 1) if x.ndim else st.nothing()
    subsets = st.lists(st.integers(0, max(x.ndim - 1, 0)), unique=True, max_size=x.ndim)
    return st.none() | axes | subsets.map(tuple)


@pytest.mark.parametrize("name", ["sum", "prod"])
@FAST
@given(data=st.data())
def test_accumulations_match_numpy(backend: str, name: str, data: st.DataObject) -> None:
    x = data.draw(arrays(("bool", *NUMERIC)))
    axis = data.draw(_axis(x))
    keepdims = data.draw(st.booleans())
    got = getattr(ivy, name)(ivy.asarray(x), axis=axis, keepdims=keepdims)
    expected = np.asarray(getattr(np, name)(x, axis=axis, keepdims=keepdims))
    check(got, expected, exact=expected.dtype.kind != "f")


@pytest.mark.parametrize("name", ["max", "min", "mean", "std", "var"])
@FAST
@given(data=st.data())
def test_reductions_match_numpy(backend: str, name: str, data: st.DataObject) -> None:
    dtypes = REAL_FLOAT if name in ("mean", "std", "var") else NUMERIC
    x = data.draw(arrays(dtypes, min_dims=1, min_side=2))
    axis = data.draw(_axis(x))
    kwargs = {"correction": data.draw(st.sampled_from([0, 1]))} if name in ("std", "var") else {}
    got = getattr(ivy, name)(ivy.asarray(x), axis=axis, **kwargs)
    np_kwargs = {"ddof": kwargs["correction"]} if kwargs else {}
    with np.errstate(all="ignore"):
        expected = np.asarray(getattr(np, name)(x, axis=axis, **np_kwargs))
    check(got, expected, exact=name in ("max", "min"))


@FAST
@given(data=st.data())
def test_cumulative_sum_matches_numpy(backend: str, data: st.DataObject) -> None:
    x = data.draw(arrays(("bool", *NUMERIC), min_dims=1))
    axis = data.draw(st.integers(0, x.ndim - 1))
    initial = data.draw(st.booleans())
    got = ivy.cumulative_sum(ivy.asarray(x), axis=axis, include_initial=initial)
    check(got, np.cumulative_sum(x, axis=axis, include_initial=initial), exact=x.dtype.kind != "f")


def test_uint8_sums_to_uint64_and_no_axis_keeps_the_shape(backend: str) -> None:
    x = ivy.asarray([[200, 100]], dtype="uint8")
    assert ivy.sum(x).dtype == "uint64" and int(ivy.sum(x)) == 300
    assert ivy.prod(x).dtype == "uint64" and int(ivy.prod(x)) == 20000
    floats = ivy.asarray([[1.0, 2.0]])
    assert ivy.mean(floats, axis=()).shape == (1, 2)
    assert ivy.sum(floats, axis=()).shape == (1, 2)
    assert ivy.max(floats, axis=()).shape == (1, 2)


def test_uint64_extremes_keep_their_order(backend: str) -> None:
    x = ivy.asarray(np.array([2**63 + 5, 3, 2**64 - 1], dtype=np.uint64))
    assert int(ivy.max(x)) == 2**64 - 1 and int(ivy.min(x)) == 3


def test_out_keeps_buffer_and_dtype(backend: str) -> None:
    out = ivy.zeros((2,), dtype="float64")
    ret = ivy.sum(ivy.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=0, out=out)
    assert ret is out and out.dtype == "float64"
    np.testing.assert_array_equal(ivy.to_numpy(out), [4.0, 6.0])
    # ``out`` is keyword-only: a fifth positional argument is refused (as a TypeError, which
    # the wrapper reports as a backend error).
    with pytest.raises((TypeError, ivy.IvyBackendException), match="positional"):
        ivy.sum(ivy.asarray([1.0]), None, False, False, out)  # type: ignore[misc]
