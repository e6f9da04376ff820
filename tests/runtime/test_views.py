"""Views behave like NumPy views on every backend (Must show 3) and ``copy=`` (Must show 4).

Every case runs the same operations on ``ivy`` and on NumPy and compares base and views after
each update, so NumPy's own view-or-copy decision is the oracle (a reshape NumPy must copy is
a copy here too).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.array import TrackedView

from .conftest import npy

Step = tuple[str, tuple[Any, ...], dict[str, Any]]

NUMPY: dict[str, Callable[..., Any]] = {
    "reshape": np.reshape,
    "permute_dims": np.transpose,
    "swapaxes": np.swapaxes,
    "moveaxis": np.moveaxis,
    "expand_dims": np.expand_dims,
    "squeeze": np.squeeze,
    "flip": np.flip,
    "rot90": np.rot90,
    "flipud": np.flipud,
    "fliplr": np.fliplr,
    "matrix_transpose": lambda a: np.swapaxes(a, -1, -2),
    "get_item": operator.getitem,
}

SINGLE: list[Step] = [
    ("reshape", ((3, 8),), {}),
    ("reshape", ((2, 2, 6),), {}),
    ("permute_dims", ((1, 0),), {}),
    ("swapaxes", (0, 1), {}),
    ("moveaxis", (0, 1), {}),
    ("expand_dims", (), {"axis": 1}),
    ("flip", (), {}),
    ("flip", (), {"axis": 1}),
    ("rot90", (), {}),
    ("rot90", (), {"k": 3}),
    ("flipud", (), {}),
    ("fliplr", (), {}),
    ("matrix_transpose", (), {}),
    ("get_item", ((slice(1, 3), slice(None, None, 2)),), {}),
    ("get_item", ((slice(None, None, -1), 2),), {}),
    ("get_item", ((None, Ellipsis, slice(1, 5)),), {}),
    ("get_item", (1,), {}),
]
CHAINS: list[list[Step]] = [
    [("flip", (), {"axis": 0}), ("get_item", ((slice(1, 3),),), {})],
    [("expand_dims", (), {"axis": 0}), ("squeeze", (), {"axis": 0})],
    [("rot90", (), {}), ("reshape", ((24,),), {})],  # NumPy copies here
    [("reshape", ((24,),), {}), ("get_item", ((slice(2, 20, 3),),), {})],
    [("permute_dims", ((1, 0),), {}), ("fliplr", (), {}), ("get_item", ((slice(1, 4), 0),), {})],
    [("get_item", ((slice(None), slice(1, 5)),), {}), ("flip", (), {}), ("swapaxes", (0, 1), {})],
    [("fliplr", (), {}), ("rot90", (), {"k": 2}), ("reshape", ((2, 12),), {})],
]


def _apply(steps: list[Step], x: Any, numpy: bool) -> Any:
    for name, args, kwargs in steps:
        x = NUMPY[name](x, *args, **kwargs) if numpy else getattr(ivy, name)(x, *args, **kwargs)
    return x


def _check(base: Any, nbase: np.ndarray, views: list[Any], nviews: list[np.ndarray]) -> None:
    np.testing.assert_array_equal(npy(base), nbase)
    for v, nv in zip(views, nviews, strict=True):
        np.testing.assert_array_equal(npy(v), nv)


def _view_and_sibling(steps: list[Step], backend: str) -> None:
    nbase = np.arange(24, dtype=np.int64).reshape(4, 6)
    base = ivy.array(nbase.copy())
    view, nview = _apply(steps, base, False), _apply(steps, nbase, True)
    sibling, nsibling = base[1:3], nbase[1:3]
    _check(base, nbase, [view, sibling], [nview, nsibling])

    values = -1 - np.arange(nview.size).reshape(nview.shape)
    ivy.inplace_update(view, ivy.array(values))
    nview[...] = values
    _check(base, nbase, [view, sibling], [nview, nsibling])

    ivy.inplace_update(base, ivy.array(nbase * 0 + 100 + np.arange(24).reshape(4, 6)))
    nbase[...] = 100 + np.arange(24).reshape(4, 6)
    _check(base, nbase, [view, sibling], [nview, nsibling])

    sibling += 1000
    nsibling += 1000
    _check(base, nbase, [view, sibling], [nview, nsibling])


@pytest.mark.parametrize("step", SINGLE, ids=lambda s: f"{s[0]}{s[1]}{s[2]}")
def test_view_functions_and_basic_indexing(backend: str, step: Step) -> None:
    _view_and_sibling([step], backend)


@pytest.mark.parametrize("steps", CHAINS, ids=lambda c: "-".join(s[0] for s in c))
def test_view_chains(backend: str, steps: list[Step]) -> None:
    _view_and_sibling(steps, backend)


def test_augmented_assignment_through_a_slice(backend: str) -> None:
    b = ivy.arange(5)
    v = b[0:2]
    v += 10
    np.testing.assert_array_equal(npy(b), [10, 11, 2, 3, 4])
    v *= 2
    np.testing.assert_array_equal(npy(b), [20, 22, 2, 3, 4])


def test_item_assignment_through_views(backend: str) -> None:
    nb = np.arange(12).reshape(3, 4)
    b = ivy.array(nb.copy())
    f = ivy.flip(b, axis=1)
    nf = np.flip(nb, axis=1)
    f[0, 1] = 99
    nf[0, 1] = 99
    f[1:, ::2] = ivy.array([[-1, -2], [-3, -4]])
    nf[1:, ::2] = [[-1, -2], [-3, -4]]
    b[2, [0, 3]] = 7  # advanced indexing on the left: writes in place, as in NumPy
    nb[2, [0, 3]] = 7
    _check(b, nb, [f], [nf])


def test_integer_index_to_0d_copies_but_ellipsis_keeps_a_view(backend: str) -> None:
    """NumPy: ``b[0]`` of a 1-d array is a scalar (a copy); ``b[..., 0]`` a 0-d view.
    PyTorch returns a view for both; the runtime follows NumPy (found by hypothesis)."""
    b = ivy.array(np.array([1.0, 2.0]))
    scalar = b[0]
    scalar += 100.0
    np.testing.assert_array_equal(npy(b), [1.0, 2.0])
    view = b[..., 0]
    view += 100.0
    np.testing.assert_array_equal(npy(b), [101.0, 2.0])


def test_advanced_indexing_copies(backend: str) -> None:
    b = ivy.arange(6)
    c = b[[0, 2]]
    c += 100
    m = b[ivy.array(np.array([True, False] * 3))]
    m += 100
    np.testing.assert_array_equal(npy(b), np.arange(6))
    np.testing.assert_array_equal(npy(c), [100, 102])


@pytest.mark.parametrize("fn", ["flip", "rot90", "flipud", "fliplr"])
def test_torch_non_view_functions_behave_as_views(fn: str) -> None:
    with ivy.using_backend("torch"):
        _view_and_sibling([(fn, (), {})], "torch")


def _shares(a: Any, b: Any, backend: str) -> bool:
    if backend == "numpy":
        return bool(np.shares_memory(a.data, b.data))
    if backend == "torch":
        return bool(a.data.untyped_storage().data_ptr() == b.data.untyped_storage().data_ptr())
    if backend == "jax":
        return bool(a.data.unsafe_buffer_pointer() == b.data.unsafe_buffer_pointer())
    return False


@pytest.mark.parametrize("step", SINGLE, ids=lambda s: f"{s[0]}{s[1]}{s[2]}")
def test_copy_true_never_shares_memory(backend: str, step: Step) -> None:
    name, args, kwargs = step
    base = ivy.array(np.arange(24).reshape(4, 6))
    copied = getattr(ivy, name)(base, *args, copy=True, **kwargs)
    assert not _shares(copied, base, backend)
    before = npy(copied)
    ivy.inplace_update(base, ivy.zeros_like(base))
    np.testing.assert_array_equal(npy(copied), before)
    ivy.inplace_update(copied, ivy.ones_like(copied))
    np.testing.assert_array_equal(npy(base), np.zeros((4, 6)))


def test_out_wins_over_copy(backend: str) -> None:
    base = ivy.array(np.arange(6.0))
    out = ivy.zeros((2, 3), dtype="float64")
    assert ivy.reshape(base, (2, 3), copy=True, out=out) is out
    assert ivy.reshape(base, (2, 3), copy=False, out=out) is out
    ivy.inplace_update(out, ivy.zeros((2, 3)))
    np.testing.assert_array_equal(npy(base), np.arange(6.0))


def test_tracked_view_updates_with_one_strided_scatter(backend: str) -> None:
    """A 3-deep chain composes into one strided region (no index-array fallback)."""
    base = ivy.array(np.arange(24.0).reshape(4, 6))
    view = ivy.flip(ivy.permute_dims(base[1:4, ::2], (1, 0)), axis=0)
    if backend in ("jax", "tensorflow"):  # (PyTorch: native views, then a tracked flip)
        assert isinstance(view, TrackedView)
        assert view.region.positions is None and view.region.index is not None
    view[...] = 0.0
    expected = np.arange(24.0).reshape(4, 6)
    expected[1:4, ::2] = 0.0
    np.testing.assert_array_equal(npy(base), expected)


@pytest.mark.parametrize("query", [(0,), 0, -1, (np.int64(1),)])
@pytest.mark.parametrize("shape", [(1,), (1, 1)])
def test_one_element_takes_no_sequence(backend: str, query: Any, shape: tuple[int, ...]) -> None:
    """An integer for every axis of a view selects one element: NumPy refuses a value with
    axes there, even of one element ("setting an array element with a sequence"), and so
    does every backend, through a view or not; a 0-d value or a scalar is written. Found by
    a differential fuzz of view chains (``v[0,] = ivy.array([1])`` was accepted)."""
    base = ivy.array(np.arange(6.0).reshape(2, 3))
    view = base[1]
    items = query if isinstance(query, tuple) else (query,)
    expected = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        expected[1][query] = np.ones(shape)  # the oracle
    with pytest.raises(ivy.IvyValueError, match="setting an array element with a sequence"):
        view[query] = ivy.ones(shape, dtype="float64")
    with pytest.raises(ivy.IvyValueError):
        base[(1, *items)] = ivy.ones(shape)
    np.testing.assert_array_equal(npy(base), expected)  # nothing written
    view[query] = ivy.asarray(7.0, dtype="float64")
    expected[1][query] = 7.0
    np.testing.assert_array_equal(npy(base), expected)
    view[(*items, Ellipsis)] = ivy.full(shape, 9.0, dtype="float64")  # a 0-d view: leading
    expected[1][(*items, Ellipsis)] = np.full(shape, 9.0)  # axes dropped, as in NumPy
    np.testing.assert_array_equal(npy(base), expected)


RESHAPE_SOURCES: dict[str, tuple[Callable[[Any], Any], tuple[int, ...]]] = {
    "transpose": (lambda a: a.T, (6,)),
    "strided slice": (lambda a: a[:, ::2], (4,)),
    "strided slice, axes kept": (lambda a: a[:, ::2], (2, 2, 1)),
    "contiguous": (lambda a: a, (3, 2)),
    "one column": (lambda a: a[:, :1], (2,)),
    "flipped": (lambda a: a[::-1, ::-1], (6,)),
    "flipped rows": (lambda a: a[::-1], (6,)),
    "empty": (lambda a: a[:0], (0, 3)),
}


@pytest.mark.parametrize("source", sorted(RESHAPE_SOURCES))
@pytest.mark.parametrize("copy", [False, None, True])
def test_reshape_copy_as_the_standard(backend: str, source: str, copy: bool | None) -> None:
    """``copy=False`` raises where NumPy (``np.reshape(copy=False)``) needs a copy, on every
    backend (it copied silently); otherwise the result is a view, writing through to the base
    exactly as NumPy's does. ``copy=None`` is a view where one exists, ``copy=True`` never."""
    pick, shape = RESHAPE_SOURCES[source]
    expected = np.arange(6).reshape(2, 3)
    base = ivy.reshape(ivy.arange(6), (2, 3))
    try:
        oracle = np.reshape(pick(expected), shape, copy=copy)
    except ValueError:
        with pytest.raises(ValueError, match="copy=False"):
            ivy.reshape(pick(base), shape, copy=copy)
        return
    ret = ivy.reshape(pick(base), shape, copy=copy)
    assert ret.shape == oracle.shape
    if oracle.size:
        oracle[(0,) * oracle.ndim] = 99
        ret[(0,) * ret.ndim] = 99
    np.testing.assert_array_equal(npy(base), expected)
