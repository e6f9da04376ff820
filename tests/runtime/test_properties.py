"""Property tests: random view chains plus in-place updates against NumPy (Must show 6).

Hypothesis draws a chain of view operations valid for the current shape, applies it to an
``ivy`` array and to a NumPy array, then a random in-place update -- of the view, of the base,
or through item assignment -- and requires base and view to equal NumPy's afterwards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ivycheck.runtime as ivy

from .conftest import npy
from .test_views import NUMPY, Step

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _slice(draw: Any, n: int) -> slice:
    start = draw(st.one_of(st.none(), st.integers(-n, n)))
    stop = draw(st.one_of(st.none(), st.integers(-n, n)))
    step = draw(st.sampled_from([None, 1, 2, -1, -2, 3]))
    return slice(start, stop, step)


@st.composite
def steps(draw: Any, shape: tuple[int, ...]) -> Step:
    """One view operation valid for ``shape``."""
    ndim = len(shape)
    names = ["get_item", "flip", "permute_dims", "reshape", "expand_dims"]
    if ndim >= 2:
        names += ["rot90", "swapaxes", "moveaxis", "fliplr", "matrix_transpose"]
    if ndim >= 1:
        names += ["flipud"]
    if 1 in shape:
        names += ["squeeze"]
    name = draw(st.sampled_from(names))
    if name == "get_item":
        items: list[Any] = []
        for n in shape:
            if n and draw(st.booleans()) and draw(st.booleans()):
                items.append(draw(st.integers(-n, n - 1)))
            else:
                items.append(_slice(draw, n))
        if draw(st.booleans()):
            items.insert(draw(st.integers(0, len(items))), None)
        return ("get_item", (tuple(items),), {})
    if name == "flip":
        axis = draw(st.one_of(st.none(), st.integers(0, ndim - 1))) if ndim else None
        return ("flip", (), {"axis": axis})
    if name == "permute_dims":
        return ("permute_dims", (tuple(draw(st.permutations(range(ndim)))),), {})
    if name == "reshape":
        size = int(np.prod(shape))
        factors = [d for d in range(1, size + 1) if size % d == 0] or [1]
        first = draw(st.sampled_from(factors))
        return ("reshape", ((first, -1) if size else (0,),), {})
    if name == "expand_dims":
        return ("expand_dims", (), {"axis": draw(st.integers(0, ndim))})
    if name == "squeeze":
        return ("squeeze", (), {"axis": shape.index(1)})
    if name == "rot90":
        return ("rot90", (), {"k": draw(st.integers(1, 3)), "axes": (0, ndim - 1)})
    if name in ("swapaxes", "moveaxis"):
        return (name, (draw(st.integers(0, ndim - 1)), draw(st.integers(0, ndim - 1))), {})
    return (name, (), {})


@st.composite
def chains(draw: Any) -> tuple[tuple[int, ...], list[Step]]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    chain: list[Step] = []
    current = np.empty(shape)
    for _ in range(draw(st.integers(1, 3))):
        step = draw(steps(current.shape))
        name, args, kwargs = step
        current = NUMPY[name](current, *args, **kwargs)
        chain.append(step)
    return shape, chain


def _run(shape: tuple[int, ...], chain: list[Step], update: str) -> None:
    nbase = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    base = ivy.array(nbase.copy())
    view, nview = base, nbase
    for name, args, kwargs in chain:
        nview = NUMPY[name](nview, *args, **kwargs)
        view = getattr(ivy, name)(view, *args, **kwargs)
    np.testing.assert_array_equal(npy(view), nview)
    nview = nview if isinstance(nview, np.ndarray) else np.array(nview)  # scalars are copies
    if update == "view":
        values = -1.0 - np.arange(nview.size).reshape(nview.shape)
        ivy.inplace_update(view, ivy.array(values))
        nview[...] = values
    elif update == "augmented":
        view += 100.0
        nview += 100.0
    elif update == "setitem" and nview.ndim and nview.shape[-1]:
        view[..., 0] = -7.0
        nview[..., 0] = -7.0
    else:
        ivy.inplace_update(base, ivy.array(nbase * 2 + 1))
        nbase[...] = nbase * 2 + 1
    np.testing.assert_array_equal(npy(base), nbase)
    np.testing.assert_array_equal(npy(view), nview)


@pytest.mark.parametrize("update", ["view", "augmented", "setitem", "base"])
@SETTINGS
@given(case=chains())
def test_random_view_chains_match_numpy(
    backend: str, update: str, case: tuple[tuple[int, ...], list[Step]]
) -> None:
    _run(*case, update)


@pytest.mark.slow
@pytest.mark.parametrize("update", ["view", "augmented", "setitem", "base"])
@settings(max_examples=500, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=chains())
def test_random_view_chains_match_numpy_exhaustive(
    backend: str, update: str, case: tuple[tuple[int, ...], list[Step]]
) -> None:
    _run(*case, update)
