"""``from_dlpack`` of host memory a backend cannot take as it is (issue 38).

TensorFlow imported a buffer off a 64-byte boundary zero-copy and aborted the process at the
next kernel; PyTorch imported negative strides and aborted; JAX and TensorFlow refused
non-contiguous strides. The standard: ``copy=None`` copies when it must, ``copy=False``
raises ``BufferError``, ``copy=True`` always has memory of its own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.backends._common.dlpack import aligned_copy

from .conftest import npy

AWKWARD: list[tuple[str, Callable[[], np.ndarray]]] = [
    ("off a 64-byte boundary", lambda: np.arange(41)[1:]),
    ("negative stride", lambda: np.arange(6)[::-1]),
    ("non-contiguous", lambda: np.arange(12)[::3]),
    ("transposed", lambda: np.arange(6.0).reshape(2, 3).T),
    ("bool, strided", lambda: np.array([True, False, True, False])[::2]),
]


@pytest.mark.parametrize(("name", "make"), AWKWARD, ids=[a[0] for a in AWKWARD])
def test_copy_none_imports_any_layout(
    backend: str, name: str, make: Callable[[], np.ndarray]
) -> None:
    source = make()
    x = ivy.from_dlpack(source)
    # a kernel runs on the imported memory (where TensorFlow aborted) and sees the values
    np.testing.assert_array_equal(npy(x == x), np.ones(source.shape, bool))
    np.testing.assert_array_equal(npy(x), source)


@pytest.mark.parametrize(("name", "make"), AWKWARD, ids=[a[0] for a in AWKWARD])
def test_copy_true_has_memory_of_its_own(
    backend: str, name: str, make: Callable[[], np.ndarray]
) -> None:
    source = make()
    expected = source.copy()
    x = ivy.from_dlpack(source, copy=True)
    source[...] = source[::-1] if source.ndim == 1 else 0
    np.testing.assert_array_equal(npy(x), expected)


def test_copy_false_refuses_what_only_a_copy_imports(backend: str) -> None:
    negative = np.arange(6)[::-1]
    if backend == "numpy":  # NumPy takes any strides: shared, as the standard asks
        x = ivy.from_dlpack(negative, copy=False)
        negative[0] = 99
        assert npy(x)[0] == 99
        return
    with pytest.raises(BufferError, match="copy=False"):
        ivy.from_dlpack(negative, copy=False)
    with pytest.raises(ivy.IvyBufferError):
        ivy.from_dlpack(negative, copy=False)


def test_copy_false_refuses_non_contiguous_where_the_backend_needs_compact_strides(
    backend: str,
) -> None:
    strided = np.arange(12)[::3]
    if backend in ("numpy", "torch"):  # both take any non-negative strides zero-copy
        x = ivy.from_dlpack(strided, copy=False)
        strided[1] = 99
        assert npy(x)[1] == 99
        return
    with pytest.raises(BufferError):
        ivy.from_dlpack(strided, copy=False)


def test_copy_false_shares_compact_aligned_memory(backend: str) -> None:
    source = aligned_copy(np.arange(8))
    x = ivy.from_dlpack(source, copy=False)
    np.testing.assert_array_equal(npy(x), source)


@pytest.mark.parametrize(
    "make",
    [lambda: np.empty((0,)), lambda: np.arange(41.0)[1:1], lambda: np.zeros((3, 0), np.int8).T],
    ids=["empty", "empty, off a 64-byte boundary", "empty, transposed"],
)
def test_copy_false_imports_an_empty_array(backend: str, make: Callable[[], np.ndarray]) -> None:
    """No element to share or copy: ``copy=False`` holds (TensorFlow refused an empty NumPy
    array's unaligned address; the Array API suite's ``test_from_dlpack`` drew one)."""
    source = make()
    x = ivy.from_dlpack(source, copy=False)
    assert x.shape == source.shape
    assert x.dtype == source.dtype.name


@pytest.mark.parametrize("copy", [None, True])
@pytest.mark.parametrize(("name", "make"), AWKWARD, ids=[a[0] for a in AWKWARD])
def test_asarray_of_any_numpy_layout_gives_its_values(
    backend: str, name: str, make: Callable[[], np.ndarray], copy: bool | None
) -> None:
    """``asarray`` copies where the backend cannot share (PyTorch refused a negative-stride
    view whatever ``copy`` said: "At least one stride ... is negative")."""
    source = make()
    x = ivy.asarray(source, copy=copy)
    np.testing.assert_array_equal(npy(x == x), np.ones(source.shape, bool))
    np.testing.assert_array_equal(npy(x), source)


def test_asarray_copy_false_of_a_negative_stride_view_raises_value_error_on_torch() -> None:
    """Only a copy gives a tensor of negative strides: ``copy=False`` raises the standard's
    ``ValueError`` (NumPy shares the view; JAX and TensorFlow copy any NumPy input)."""
    with ivy.using_backend("torch"), pytest.raises(ValueError, match=r"copy=False.*negative"):
        ivy.asarray(np.arange(6)[::-1], copy=False)
