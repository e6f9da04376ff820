"""Inputs a backend aborted, hung or crashed on get one clear error first (issue 38).

``zeros((2**62, 8))`` terminated the process on JAX (XLA's size product overflows);
``linalg.pinv`` of a 3x3 matrix with one ``inf`` never returned on NumPy and JAX;
NumPy's ``cumulative_sum``/``cumulative_prod`` with a 0-d ``out`` segfaulted inside NumPy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.exceptions import IvyValueError

from .conftest import npy

HUGE: list[tuple[str, Callable[[], Any]]] = [
    ("zeros", lambda: ivy.zeros((2**62, 8))),
    ("ones", lambda: ivy.ones((2**61, 2**3), dtype=ivy.int8)),
    ("empty", lambda: ivy.empty((2**40, 2**21))),
    ("full", lambda: ivy.full((2**62, 8), 1.0)),
    ("arange", lambda: ivy.arange(2**62)),
    ("arange, a float step", lambda: ivy.arange(0, 2**62, 0.5)),  # NumPy: an empty array
    ("linspace", lambda: ivy.linspace(0, 1, 2**62)),  # TensorFlow: an empty array
    ("eye", lambda: ivy.eye(2**32)),
    ("broadcast_to", lambda: ivy.broadcast_to(ivy.zeros(1), (2**62, 8))),
]


@pytest.mark.parametrize(("name", "make"), HUGE, ids=[h[0] for h in HUGE])
def test_a_shape_too_big_to_address_raises_one_error_on_every_backend(
    backend: str, name: str, make: Callable[[], Any]
) -> None:
    """One class and one message, whatever the backend would have done (NumPy's own
    ``ValueError``, PyTorch's ``RuntimeError``, an empty array, an abort)."""
    with pytest.raises(IvyValueError, match=r"would take \d+ bytes, .*: array is too big$"):
        make()


def test_a_big_but_addressable_shape_is_left_to_the_backend(backend: str) -> None:
    x = ivy.zeros((2**20, 2**3), dtype=ivy.int8)  # the check must not refuse real arrays
    assert x.shape == (2**20, 8)


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
def test_pinv_of_a_non_finite_matrix_raises_instead_of_hanging(backend: str, bad: float) -> None:
    values = np.ones((3, 3), np.float32)
    values[0, 0] = bad
    with pytest.raises(ivy.IvyValueError, match="non-finite"):
        ivy.linalg.pinv(ivy.asarray(values))


def test_pinv_of_a_finite_matrix_still_answers(backend: str) -> None:
    values = np.array([[2.0, 0.0], [0.0, 4.0]], np.float32)
    np.testing.assert_allclose(npy(ivy.linalg.pinv(ivy.asarray(values))), np.linalg.pinv(values))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("source", [3, [3]], ids=["0-d x", "1-d x"])
def test_cumulative_into_a_0d_out_raises_and_leaves_out_alone(
    backend: str, name: str, source: Any
) -> None:
    out = ivy.asarray(7)
    with pytest.raises((ivy.InplaceUpdateException, ValueError)):
        getattr(ivy, name)(ivy.asarray(source), out=out)
    assert npy(out) == 7


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_of_a_0d_array_needs_an_axis_on_every_backend(backend: str, name: str) -> None:
    with pytest.raises(ValueError):
        getattr(ivy, name)(ivy.asarray(3))
