"""Random view chains, then a random write, against NumPy on every backend.

Hypothesis draws a chain of view operations (``test_properties.chains``), applies it to an
``ivy`` array and to a NumPy array, then one write of the kinds issue 16 found broken: item
assignment with an int, a slice, ``...``, an integer array or a boolean mask; a value with
extra leading unit axes; an in-place operator; or a write that must fail (wrong shape). Base
and view must equal NumPy's afterwards -- for a failing write, both must be unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ivycheck.runtime as ivy

from .conftest import npy
from .test_properties import chains
from .test_views import NUMPY, Step


@st.composite
def writes(draw: Any, shape: tuple[int, ...]) -> tuple[str, Any, np.ndarray | float]:
    """A write valid for a view of ``shape``: (kind, query, value)."""
    kinds = ["iadd", "fail"]
    if shape:
        kinds += ["slice", "ellipsis", "leading", "mask"]
        if shape[0]:
            kinds += ["int", "intarray"]
    kind = draw(st.sampled_from(kinds))
    if kind == "int":
        return kind, draw(st.integers(-shape[0], shape[0] - 1)), -3.0
    if kind == "slice":
        step = draw(st.sampled_from([1, 2, -1]))
        return kind, (slice(None, None, step),), -4.0
    if kind == "ellipsis":
        return kind, Ellipsis, -5.0
    if kind == "leading":
        region = np.empty(shape)[..., :1]
        return kind, (Ellipsis, slice(0, 1)), -np.ones((1, 1, *region.shape))
    if kind == "mask":
        mask = np.array(
            draw(st.lists(st.booleans(), min_size=shape[0], max_size=shape[0])), dtype=bool
        )
        return kind, mask.reshape(shape[:1]), -6.0
    if kind == "intarray":
        order = draw(st.permutations(range(shape[0])))
        count = draw(st.integers(1, shape[0]))
        index = np.array(order[:count], dtype=np.int64)
        return kind, index, -np.arange(1.0, count + 1).reshape((count,) + (1,) * (len(shape) - 1))
    if kind == "iadd":
        return kind, None, 100.0
    return kind, Ellipsis, np.ones((*shape, 2))  # one axis too many: must raise


def _as_ivy(query: Any) -> Any:
    return ivy.asarray(query) if isinstance(query, np.ndarray) else query


def _check(shape: tuple[int, ...], chain: list[Step], write: tuple[str, Any, Any]) -> None:
    nbase = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    base = ivy.asarray(nbase.copy())
    view, nview = base, nbase
    for name, args, kwargs in chain:
        nview = NUMPY[name](nview, *args, **kwargs)
        view = getattr(ivy, name)(view, *args, **kwargs)
    nview = nview if isinstance(nview, np.ndarray) else np.array(nview)  # scalars are copies
    kind, query, value = write
    if kind == "iadd":
        view += value
        nview += value
    elif kind == "fail":
        before = nbase.copy(), nview.copy()
        try:
            view[query] = ivy.asarray(value)
        except ivy.IvyException:
            pass
        else:
            raise AssertionError("a value with one axis too many was written")
        np.testing.assert_array_equal(nbase, before[0])  # NumPy unchanged, so must be ivy
    else:
        nview[query] = value
        view[_as_ivy(query)] = ivy.asarray(value) if isinstance(value, np.ndarray) else value
    np.testing.assert_array_equal(npy(base), nbase)
    np.testing.assert_array_equal(npy(view), nview)


@st.composite
def cases(draw: Any) -> tuple[tuple[int, ...], list[Step], tuple[str, Any, Any]]:
    shape, chain = draw(chains())
    current = np.empty(shape)
    for name, args, kwargs in chain:
        current = NUMPY[name](current, *args, **kwargs)
    return shape, chain, draw(writes(np.shape(current)))


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cases())
def test_view_chain_then_write_matches_numpy(
    backend: str, case: tuple[tuple[int, ...], list[Step], tuple[str, Any, Any]]
) -> None:
    _check(*case)
