"""``out=``: keeps dtype and shape on every path; native buffer on NumPy/PyTorch (Must show 1,
2, 5)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import native_of, npy

X = np.array([[0.5, 0.25, 1.0], [0.75, 0.1, 0.3]], dtype=np.float32)
SPD = np.array([[4.0, 2.0], [2.0, 3.0]], dtype=np.float32)

# (name, call with out, NumPy oracle); native-out and wrapper paths alike.
CASES: list[tuple[str, Callable[..., Any], Callable[[], np.ndarray]]] = [
    ("tan", lambda x, out: ivy.tan(x, out=out), lambda: np.tan(X)),
    ("add", lambda x, out: ivy.add(x, x, out=out), lambda: X + X),
    (
        "where",
        lambda x, out: ivy.where(ivy.array(X > 0.4), x, 0.0, out=out),
        lambda: np.where(X > 0.4, X, 0),
    ),
    ("clip", lambda x, out: ivy.clip(x, 0.2, 0.6, out=out), lambda: np.clip(X, 0.2, 0.6)),
    (
        "remainder",
        lambda x, out: ivy.remainder(x, 0.3, modulus=False, out=out),
        lambda: np.fmod(X, np.float32(0.3)),
    ),
    (
        "remainder-modulus",
        lambda x, out: ivy.remainder(-x, 0.3, out=out),
        lambda: np.remainder(-X, np.float32(0.3)),
    ),
    ("reshape", lambda x, out: ivy.reshape(x, (2, 3), out=out), lambda: X),
    ("flip", lambda x, out: ivy.flip(x, out=out), lambda: np.flip(X)),
    ("zeros_like", lambda x, out: ivy.zeros_like(x, out=out), lambda: np.zeros_like(X)),
    ("copy_array", lambda x, out: ivy.copy_array(x, out=out), lambda: X),
]
REDUCTIONS: list[tuple[str, Callable[..., Any], Callable[[], np.ndarray]]] = [
    ("sum", lambda x, out: ivy.sum(x, axis=0, out=out), lambda: X.sum(axis=0)),
    ("mean", lambda x, out: ivy.mean(x, axis=1, out=out), lambda: X.mean(axis=1)),
    ("prod", lambda x, out: ivy.prod(x, axis=0, out=out), lambda: X.prod(axis=0)),
    ("max", lambda x, out: ivy.max(x, axis=0, out=out), lambda: X.max(axis=0)),
    ("min", lambda x, out: ivy.min(x, axis=1, out=out), lambda: X.min(axis=1)),
    ("matmul", lambda x, out: ivy.matmul(x, x.mT, out=out), lambda: X @ X.T),
]


@pytest.mark.parametrize(
    ("name", "call", "oracle"), CASES + REDUCTIONS, ids=lambda c: c if isinstance(c, str) else ""
)
def test_out_keeps_float64_for_float32_inputs(
    backend: str, name: str, call: Callable[..., Any], oracle: Callable[[], np.ndarray]
) -> None:
    expected = oracle()
    out = ivy.zeros(expected.shape, dtype=ivy.float64)
    ret = call(ivy.array(X), out)
    assert ret is out
    assert out.dtype == ivy.float64
    assert out.shape == expected.shape
    np.testing.assert_allclose(npy(out), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_out_both_paths(backend: str, upper: bool) -> None:
    out = ivy.zeros((2, 2), dtype="float64")
    ret = ivy.cholesky(ivy.array(SPD), upper=upper, out=out)
    lower = np.linalg.cholesky(SPD)
    assert ret is out and out.dtype == "float64"
    np.testing.assert_allclose(npy(out), lower.T if upper else lower, rtol=1e-6)


def test_compositional_cross_entropy_handles_out_itself(backend: str) -> None:
    true = ivy.array([[0.0, 1.0], [1.0, 0.0]])
    pred = ivy.array([[0.2, 0.8], [0.6, 0.4]])
    out = ivy.zeros((), dtype="float64")
    assert ivy.cross_entropy(true, pred, out=out) is out
    assert out.dtype == "float64"
    np.testing.assert_allclose(npy(out), -(np.log(0.8) + np.log(0.6)) / 2, rtol=1e-6)


def test_native_out_numpy_writes_the_buffer_without_temporaries() -> None:
    x = ivy.array(np.linspace(0, 1, 1_000_000))
    y = ivy.zeros(1_000_000, dtype="float64")
    buffer, pointer = y.data, y.data.ctypes.data
    tracemalloc.start()
    try:
        ret = ivy.tan(x, out=y)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert ret is y and y.data is buffer and y.data.ctypes.data == pointer
    assert peak < 100_000  # the result alone would be 8 MB
    np.testing.assert_allclose(npy(y), np.tan(np.linspace(0, 1, 1_000_000)))


def test_native_out_torch_writes_the_same_storage() -> None:
    with ivy.using_backend("torch"):
        x = ivy.array(np.linspace(0, 1, 1000).astype(np.float32))
        y = ivy.zeros(1000, dtype="float32")
        tensor, pointer = y.data, y.data.untyped_storage().data_ptr()
        version = tensor._version
        ret = ivy.tan(x, out=y)
        assert ret is y and y.data is tensor
        assert tensor.untyped_storage().data_ptr() == pointer
        assert tensor._version == version + 1  # one native write, no copy_ from a temporary
        np.testing.assert_allclose(npy(y), np.tan(npy(x)), rtol=1e-6)


@pytest.mark.parametrize("name", ["jax", "tensorflow"])
def test_out_on_immutable_backends_is_the_same_array_with_new_values(name: str) -> None:
    with ivy.using_backend(name):
        x = ivy.array([0.1, 0.2], dtype="float32")
        y = ivy.zeros(2, dtype="float32")
        old = y.data
        assert ivy.tan(x, out=y) is y
        assert y.data is not old
        np.testing.assert_allclose(npy(y), np.tan([0.1, 0.2]), rtol=1e-6)


def test_native_array_as_out_is_an_error_naming_out(backend: str) -> None:
    native = native_of(backend, np.zeros(3, dtype=np.float32))
    with pytest.raises(ivy.IvyTypeError, match=r"\bout\b must be an ivy.Array"):
        ivy.tan(ivy.array([1.0, 2.0, 3.0]), out=native)


@pytest.mark.parametrize("path", ["native", "wrapped"])
def test_out_of_wrong_shape_raises_before_writing(backend: str, path: str) -> None:
    out = ivy.full((2, 2), 7.0, dtype="float32")
    x = ivy.array([1.0, 2.0, 3.0])
    with pytest.raises(ivy.InplaceUpdateException):  # the same error on every backend
        if path == "native":
            ivy.tan(x, out=out)
        else:
            ivy.where(ivy.array([True, False, True]), x, 0.0, out=out)
    assert out.shape == (2, 2)
    np.testing.assert_array_equal(npy(out), np.full((2, 2), 7.0))


@pytest.mark.parametrize("path", ["native", "wrapped", "reduction"])
def test_out_of_uncastable_dtype_raises_before_writing(backend: str, path: str) -> None:
    out = ivy.full((3,), 7, dtype="int32")
    x = ivy.array([1.5, 2.5, 3.5])
    with pytest.raises(ivy.InplaceUpdateException):  # the same error on every backend
        if path == "native":
            ivy.tan(x, out=out)
        elif path == "wrapped":
            ivy.where(ivy.array([True, False, True]), x, 0.0, out=out)
        else:
            ivy.sum(ivy.reshape(ivy.array([1.5] * 6), (2, 3)), axis=0, out=out)
    assert out.dtype == "int32"
    np.testing.assert_array_equal(npy(out), [7, 7, 7])


def test_out_broadcast_like_numpy_ufuncs(backend: str) -> None:
    out = ivy.zeros((2, 3), dtype="float64")
    ivy.add(ivy.array([1.0, 2.0, 3.0]), 1.0, out=out)
    np.testing.assert_array_equal(npy(out), [[2, 3, 4], [2, 3, 4]])


def test_remainder_torch_fallback_path_keeps_out() -> None:
    with ivy.using_backend("torch"):
        out = ivy.zeros(3, dtype="float64")
        x = ivy.array([-7, 7, 5], dtype="int64")
        assert ivy.remainder(x, ivy.array([3, 3, 3]), modulus=False, out=out) is out
        assert out.dtype == "float64"
        np.testing.assert_array_equal(npy(out), np.fmod([-7, 7, 5], 3))
