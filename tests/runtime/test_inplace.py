"""``inplace_update`` per backend, containers, ``__ivy_array_function__`` (Must show 5)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import npy


def test_shape_that_cannot_broadcast_raises_before_writing(backend: str) -> None:
    x = ivy.array([1.0, 2.0, 3.0])
    with pytest.raises(ivy.InplaceUpdateException, match="shape"):
        ivy.inplace_update(x, ivy.array([1.0, 2.0]))
    with pytest.raises(ivy.InplaceUpdateException, match="shape"):
        ivy.inplace_update(x, ivy.ones((2, 3)))  # no silent rebinding to a new shape
    np.testing.assert_array_equal(npy(x), [1.0, 2.0, 3.0])


def test_uncastable_dtype_raises_before_writing(backend: str) -> None:
    x = ivy.array([1, 2, 3], dtype="int32")
    with pytest.raises(ivy.InplaceUpdateException, match="same_kind"):
        ivy.inplace_update(x, ivy.array([1.5, 2.5, 3.5]))
    with pytest.raises(ivy.InplaceUpdateException):
        x += 0.5
    assert x.dtype == "int32"
    np.testing.assert_array_equal(npy(x), [1, 2, 3])


def test_failed_update_of_a_view_leaves_base_untouched(backend: str) -> None:
    base = ivy.array(np.arange(6.0))
    view = ivy.flip(base[1:5])
    with pytest.raises(ivy.InplaceUpdateException):
        ivy.inplace_update(view, ivy.ones(5))
    np.testing.assert_array_equal(npy(base), np.arange(6.0))


def test_keep_input_dtype_keeps_dtype(backend: str) -> None:
    x = ivy.array([1, 2, 3], dtype="int32")
    assert ivy.inplace_update(x, ivy.array([1.7, 2.2, -3.9]), keep_input_dtype=True) is x
    assert x.dtype == "int32"
    np.testing.assert_array_equal(npy(x), [1, 2, -3])


def test_update_broadcasts_and_downcasts_within_kind(backend: str) -> None:
    x = ivy.zeros((2, 3), dtype="float32")
    ivy.inplace_update(x, ivy.array(np.array([1.0, 2.0, 3.0])))  # float64 into float32
    assert x.dtype == "float32"
    np.testing.assert_array_equal(npy(x), [[1, 2, 3], [1, 2, 3]])


def test_native_backends_write_the_buffer() -> None:
    for name in ("numpy", "torch"):
        with ivy.using_backend(name):
            x = ivy.zeros(3)
            native = x.data
            ivy.inplace_update(x, ivy.ones(3), ensure_in_backend=True)
            assert x.data is native
            np.testing.assert_array_equal(npy(native), [1, 1, 1])


def test_ensure_in_backend_raises_on_jax_and_tf_tensor() -> None:
    for name in ("jax", "tensorflow"):
        with ivy.using_backend(name):
            x = ivy.zeros(3)
            with pytest.raises(ivy.InplaceUpdateException, match="ensure_in_backend"):
                ivy.inplace_update(x, ivy.ones(3), ensure_in_backend=True)
            np.testing.assert_array_equal(npy(x), [0, 0, 0])
            ivy.inplace_update(x, ivy.ones(3))  # rebinding is the default
            np.testing.assert_array_equal(npy(x), [1, 1, 1])


def test_tf_variable_is_updated_natively() -> None:
    import tensorflow as tf

    with ivy.using_backend("tensorflow"):
        var = tf.Variable([1.0, 2.0, 3.0])
        x = ivy.Array(var)
        ivy.inplace_update(x, ivy.array([4.0, 5.0, 6.0]), ensure_in_backend=True)
        assert x.data is var
        np.testing.assert_array_equal(var.numpy(), [4, 5, 6])
        view = x[::-1]
        view[0] = 0.0  # through a tracked view into the variable
        np.testing.assert_array_equal(var.numpy(), [4, 5, 0])
        ivy.tan(ivy.array([0.0, 0.0, 0.0]), out=x)
        assert x.data is var
        np.testing.assert_array_equal(var.numpy(), [0, 0, 0])


def test_container_update_returns_the_same_container(backend: str) -> None:
    c = ivy.Container({"a": ivy.zeros(2), "b": {"c": ivy.zeros(3)}})
    leaf = c["b"]["c"]
    assert ivy.inplace_update(c, 1.0) is c
    assert c["b"]["c"] is leaf
    np.testing.assert_array_equal(npy(leaf), [1, 1, 1])
    new = ivy.Container({"a": ivy.ones(2) * 2, "b": {"c": ivy.ones(3) * 3}})
    ivy.inplace_update(c, new)
    np.testing.assert_array_equal(npy(c.a), [2, 2])


def test_nestable_functions_map_over_containers(backend: str) -> None:
    c = ivy.Container({"a": ivy.array([1.0, 2.0]), "b": {"c": ivy.array([3.0])}})
    ret = ivy.add(c, 1.0)
    assert isinstance(ret, ivy.Container)
    np.testing.assert_array_equal(npy(ret.b.c), [4.0])
    out = ivy.Container({"a": ivy.zeros(2, dtype="float64"), "b": {"c": ivy.zeros(1)}})
    assert ivy.multiply(c, c, out=out) is out
    assert out.a.dtype == "float64"
    np.testing.assert_array_equal(npy(out.a), [1.0, 4.0])


class Quantity:
    """A custom class joining through ``__ivy_array_function__``."""

    def __init__(self, value: Any, unit: str) -> None:
        self.value, self.unit = value, unit

    def __ivy_array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        if func.__name__ != "add":
            return NotImplemented
        plain = [a.value if isinstance(a, Quantity) else a for a in args]
        return Quantity(func(*plain, **kwargs), self.unit)


def test_array_function_protocol(backend: str) -> None:
    q = ivy.add(Quantity(ivy.array([1.0]), "m"), ivy.array([2.0]))
    assert isinstance(q, Quantity) and q.unit == "m"
    np.testing.assert_array_equal(npy(q.value), [3.0])
    with pytest.raises(ivy.IvyNotImplementedException, match="Quantity"):
        ivy.multiply(Quantity(ivy.array([1.0]), "m"), 2.0)


def test_instance_methods_and_protocols(backend: str) -> None:
    x = ivy.array([[1.0, 2.0], [3.0, 4.0]])
    assert x.reshape((4,)).shape == (4,)
    np.testing.assert_allclose(npy(x.sum(axis=0)), [4.0, 6.0])
    assert np.asarray(x).tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert ivy.is_ivy_array(x) and ivy.is_native_array(x.data) and not ivy.is_array([1])
    assert x.device == "cpu" and x.ndim == 2 and len(x) == 2
    assert ivy.to_native(x) is x.data
    assert float(ivy.sum(x)) == 10.0
