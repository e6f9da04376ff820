"""In-place updates never leave a half-written target; views do not leak (issue 8).

Every failure path -- a shape that does not fit, a dtype that cannot be cast, a native array
as ``out``, ``ensure_in_backend`` where the backend cannot -- on every backend, for a plain
array, a view (target of the write) and the base under it: nothing changes, not the values,
not the dtype, not the shape, not the native object. Dropping views releases them and the
bookkeeping they hold (weak references, ``gc``).
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import native_of, npy

BASE = np.arange(12.0, dtype=np.float32).reshape(3, 4)


def _snapshot(*arrays: ivy.Array) -> list[tuple[Any, tuple[int, ...], str, np.ndarray]]:
    return [(a.data, a.shape, str(a.dtype), npy(a).copy()) for a in arrays]


def _targets() -> dict[str, Callable[[ivy.Array], ivy.Array]]:
    return {
        "array": lambda base: base,
        "slice": lambda base: base[1:, ::2],
        "flip": lambda base: ivy.flip(base[0:2], axis=1),
        "transpose": lambda base: ivy.permute_dims(base, (1, 0)),
    }


FAILURES: dict[str, Callable[[ivy.Array, str], Any]] = {
    "shape": lambda t, b: ivy.inplace_update(t, ivy.ones((5, 5))),
    "dtype": lambda t, b: ivy.inplace_update(t, ivy.array(np.full(t.shape, 1 + 2j))),
    "out-shape": lambda t, b: ivy.tan(ivy.ones((7,)), out=t),
    "out-dtype": lambda t, b: ivy.add(ivy.array(np.full(t.shape, 1 + 1j)), 1.0, out=t),
    "native-out": lambda t, b: ivy.tan(ivy.ones(t.shape), out=native_of(b, np.zeros(t.shape))),
    "setitem": lambda t, b: t.__setitem__(0, ivy.ones((9,))),
    "iadd-dtype": lambda t, b: t.__iadd__(ivy.array(np.full(t.shape, 1j))),
}


@pytest.mark.parametrize("target", sorted(_targets()))
@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_failed_update_changes_nothing(backend: str, target: str, failure: str) -> None:
    base = ivy.array(BASE.copy())
    view = _targets()[target](base)
    before = _snapshot(base, view)
    with pytest.raises(ivy.IvyException):
        FAILURES[failure](view, backend)
    after = _snapshot(base, view)
    for (data0, shape0, dtype0, values0), (data1, shape1, dtype1, values1) in zip(
        before, after, strict=True
    ):
        assert (shape1, dtype1) == (shape0, dtype0)
        np.testing.assert_array_equal(values1, values0)
        if target == "array":
            assert data1 is data0  # not even rebound
    np.testing.assert_array_equal(npy(base), BASE)


@pytest.mark.parametrize("target", sorted(_targets()))
def test_ensure_in_backend_fails_cleanly_or_writes(backend: str, target: str) -> None:
    base = ivy.array(BASE.copy())
    view = _targets()[target](base)
    if backend in ("jax", "tensorflow"):
        with pytest.raises(ivy.InplaceUpdateException, match="ensure_in_backend"):
            ivy.inplace_update(view, ivy.zeros(view.shape), ensure_in_backend=True)
        np.testing.assert_array_equal(npy(base), BASE)
    else:
        ivy.inplace_update(view, ivy.zeros(view.shape), ensure_in_backend=True)
        assert not np.all(npy(base) == BASE)


@pytest.mark.parametrize(
    "value",
    [
        lambda: ivy.Container({"a": ivy.ones(2), "b": ivy.ones(4)}),  # second leaf: shape
        lambda: ivy.Container({"a": ivy.ones(2), "b": ivy.array(np.full(3, 1j))}),  # dtype
        lambda: ivy.Container({"a": ivy.ones(2)}),  # a leaf missing
    ],
    ids=["shape", "dtype", "missing"],
)
def test_failed_container_update_leaves_every_leaf(
    backend: str, value: Callable[[], ivy.Container]
) -> None:
    """Found by this test: the first leaf was written before the second failed."""
    c = ivy.Container({"a": ivy.zeros(2), "b": ivy.zeros(3)})
    with pytest.raises(ivy.IvyException):
        ivy.inplace_update(c, value())
    np.testing.assert_array_equal(npy(c["a"]), [0, 0])
    np.testing.assert_array_equal(npy(c["b"]), [0, 0, 0])


def _drop_views(base: ivy.Array, count: int) -> list[weakref.ref[ivy.Array]]:
    refs = []
    for i in range(count):
        view = ivy.flip(base[i % 3 :], axis=0)[::2]
        view += 0.0
        refs.append(weakref.ref(view))
    return refs


def test_dropped_views_are_released(backend: str) -> None:
    base = ivy.array(BASE.copy())
    refs = _drop_views(base, 50)
    gc.collect()
    assert all(ref() is None for ref in refs)
    np.testing.assert_array_equal(npy(base), BASE)


def test_dropping_base_and_views_releases_everything(backend: str) -> None:
    base = ivy.array(BASE.copy())
    views = [base[1:], ivy.flip(base, axis=1), base[::2][0]]
    refs = [weakref.ref(base), *(weakref.ref(v) for v in views)]
    del base, views
    gc.collect()
    assert all(ref() is None for ref in refs)


def test_many_views_do_not_accumulate_state_on_the_base(backend: str) -> None:
    """The base holds no list of its views: its state is the same after 10 or 500."""
    base = ivy.array(BASE.copy())
    _drop_views(base, 10)
    gc.collect()
    geometry = base._geometry
    _drop_views(base, 500)
    gc.collect()
    assert base._geometry is geometry
    assert len(gc.get_referrers(base)) <= 2  # this frame (and pytest's introspection)
