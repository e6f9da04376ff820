"""Backend errors stay catchable by the Python type the standard (and NumPy) name, and as
``IvyException``, on the four backends."""

from __future__ import annotations

import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.exceptions import IvyBackendException, backend_exception


def test_wrapped_error_is_both_ivy_and_the_original_type() -> None:
    e = backend_exception("numpy: f: bad", KeyError("k"))
    assert isinstance(e, IvyBackendException) and isinstance(e, KeyError)
    assert type(e) is type(backend_exception("again", KeyError("j")))  # one class per kind
    plain = backend_exception("x", OSError("disk"))
    assert isinstance(plain, IvyBackendException) and not isinstance(plain, ValueError)
    assert isinstance(backend_exception("tf", RuntimeError(), (ValueError,)), ValueError)


@pytest.mark.parametrize("axis", [3, -4, (0, 5)])
def test_expand_dims_axis_out_of_range_is_an_index_error(
    backend: str, axis: int | tuple[int, ...]
) -> None:
    x = ivy.zeros((2, 3))
    with pytest.raises(IndexError) as info:
        ivy.expand_dims(x, axis=axis)
    assert isinstance(info.value, ivy.IvyException)
    assert x.shape == (2, 3)


def test_expand_dims_in_range_axes(backend: str) -> None:
    x = ivy.zeros((2, 3))
    assert ivy.expand_dims(x, axis=-3).shape == (1, 2, 3)
    assert ivy.expand_dims(x, axis=(0, 3)).shape == (1, 2, 3, 1)


def test_squeeze_of_a_long_axis_is_a_value_error(backend: str) -> None:
    with pytest.raises(ValueError) as info:
        ivy.squeeze(ivy.zeros((2, 1)), axis=0)
    assert isinstance(info.value, ivy.IvyException)


def test_index_out_of_bounds_is_an_index_error(backend: str) -> None:
    x = ivy.zeros((2, 3))
    with pytest.raises(IndexError):
        x[5]
    with pytest.raises(IndexError):
        x[ivy.asarray([True, False, True])]  # mask longer than the axis


def test_a_backend_error_names_the_backend_and_the_function_once(backend: str) -> None:
    """The wrap puts ``"backend: function: "`` before the original message, which often
    names the function already: "numpy: cumulative_sum: cumulative_sum: axis is required"."""
    with pytest.raises(IvyBackendException) as caught:
        ivy.cumulative_sum(ivy.asarray(3))
    message = str(caught.value)
    assert message.startswith(f"{backend}: cumulative_sum: ")
    assert message.count("cumulative_sum: ") == 1, message
