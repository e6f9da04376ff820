"""The memory-semantics bugs of issue 16, each on every backend with NumPy as the oracle.

Item assignment on a plain array (``b[0] = 9``, ``b[...] = 9``, ``b[1:] = 9``), integer-array
and boolean-mask assignment, assignment through a native view (``swapaxes``), ``@=`` and
``matmul(out=)`` with promotion, ``@=`` that would change the shape, and NumPy's
leading-unit-axis rule for assigned values; a failed update leaves base and views unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import npy

SETITEM_CASES: list[tuple[str, Any, Any]] = [
    ("int", 0, 9),
    ("ellipsis", Ellipsis, 9),
    ("slice", slice(1, None), 9),
    ("negative-step slice", slice(None, None, -2), 9),
    ("tuple", (1,), 9),
    ("integer array", np.array([0, 2]), 9),
    ("integer array, values", np.array([2, 0]), np.array([7, 8])),
    ("boolean mask", np.array([True, False, True, False]), 9),
    ("boolean mask, values", np.array([False, True, True, False]), np.array([5, 6])),
    ("leading unit axes", (slice(1, 3),), np.array([[5, 6]])),
]


def _ivy_index(query: Any) -> Any:
    """The same query with index arrays as ``ivy.Array`` (as a user would write it)."""
    if isinstance(query, np.ndarray):
        return ivy.asarray(query)
    if isinstance(query, tuple):
        return tuple(_ivy_index(q) for q in query)
    return query


@pytest.mark.parametrize(
    ("label", "query", "value"), SETITEM_CASES, ids=[c[0] for c in SETITEM_CASES]
)
def test_setitem_on_a_plain_array_matches_numpy(
    backend: str, label: str, query: Any, value: Any
) -> None:
    expected = np.arange(4)
    b = ivy.asarray(expected.copy())
    expected[query] = value
    b[_ivy_index(query)] = ivy.asarray(value) if isinstance(value, np.ndarray) else value
    np.testing.assert_array_equal(npy(b), expected)
    assert b.dtype == ivy.int64


def test_setitem_through_a_swapaxes_view_writes_the_base(backend: str) -> None:
    expected = np.arange(6).reshape(2, 3)
    x = ivy.asarray(expected.copy())
    v = ivy.swapaxes(x, 0, 1)
    v[1] = 0
    np.swapaxes(expected, 0, 1)[1] = 0
    np.testing.assert_array_equal(npy(x), expected)
    np.testing.assert_array_equal(npy(v), expected.T)


def test_setitem_value_with_leading_unit_axes_broadcasts_as_numpy(backend: str) -> None:
    expected = np.zeros((1, 1))
    v = ivy.zeros((1, 1), dtype=ivy.float64)
    v[0,] = ivy.ones((1, 1), dtype=ivy.float64)
    expected[0,] = np.ones((1, 1))
    np.testing.assert_array_equal(npy(v), expected)


def test_imatmul_promotes_an_int32_operand(backend: str) -> None:
    v = ivy.ones((2, 2))
    other = np.array([[1, 2], [3, 4]], dtype=np.int32)
    v @= ivy.asarray(other)
    assert v.dtype == ivy.float32
    np.testing.assert_array_equal(npy(v), np.ones((2, 2), np.float32) @ other)


def test_matmul_out_with_mixed_int32_float32(backend: str) -> None:
    out = ivy.zeros((2, 2))
    a = np.array([[1, 2], [3, 4]], dtype=np.int32)
    ret = ivy.matmul(ivy.asarray(a), ivy.ones((2, 2)), out=out)
    assert ret is out
    assert out.dtype == ivy.float32
    np.testing.assert_array_equal(npy(out), a @ np.ones((2, 2)))


def _unchanged_after(fn: Callable[[], object], *arrays: ivy.Array) -> None:
    before = [npy(a) for a in arrays]
    with pytest.raises(ivy.IvyException):
        fn()
    for a, b in zip(arrays, before, strict=True):
        np.testing.assert_array_equal(npy(a), b)


def test_imatmul_that_changes_the_shape_raises_before_writing(backend: str) -> None:
    base = ivy.asarray(np.arange(8, dtype=np.float32).reshape(2, 4))
    v = base[:, :2]

    def update() -> None:
        nonlocal v
        v @= ivy.ones((2, 1))

    _unchanged_after(update, base, v)


@pytest.mark.parametrize(
    ("label", "update"),
    [
        ("dtype", lambda v: v.__iadd__(ivy.ones((2,), dtype=ivy.float64))),
        ("float into int", lambda v: v.__iadd__(0.5)),
        ("shape", lambda v: v.__iadd__(ivy.ones((3, 2, 2), dtype=ivy.int32))),
        ("setitem shape", lambda v: v.__setitem__(Ellipsis, ivy.ones((3,), dtype=ivy.int32))),
        ("out dtype", lambda v: ivy.add(v, 1.5, out=v)),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_failed_update_leaves_base_and_view_unchanged(
    backend: str, label: str, update: Callable[[ivy.Array], object]
) -> None:
    base = ivy.asarray(np.arange(8, dtype=np.int32).reshape(2, 4))
    view = ivy.flip(base[:, 1:3], axis=0)
    _unchanged_after(lambda: update(view), base, view)


def test_comparison_operators_are_elementwise(backend: str) -> None:
    x = ivy.ones((2, 2))
    eq = x[0, 0] == 1.0
    assert isinstance(eq, ivy.Array)
    assert eq.shape == ()
    assert eq.dtype == ivy.bool
    assert bool(eq) is True
    np.testing.assert_array_equal(
        npy(x < ivy.asarray([[2.0, 0.0], [1.0, 3.0]])), [[True, False], [False, True]]
    )
    np.testing.assert_array_equal(npy(x != 1.0), np.zeros((2, 2), bool))
