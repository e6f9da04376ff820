"""``asarray(..., copy=False)`` never copies: it shares memory or raises ``ValueError``
(issue 38), as the standard and array-api-strict say, on every backend.

JAX and TensorFlow copied any NumPy input silently and converted ``int32`` to ``float64``
silently; Python data raised a different error on each backend (NumPy's "Unable to avoid
copy", PyTorch's "can't alias tensor with dtype 'Double' into dtype 'Float'") or none.
JAX and TensorFlow share through DLPack only compact, 64-byte aligned, writable memory.
"""

from __future__ import annotations

import mmap
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.backends._common.dlpack import aligned_copy

from .conftest import npy

PYTHON_DATA: list[tuple[str, Any]] = [
    ("list", [1.0, 2.0]),
    ("tuple", (1, 2)),
    ("nested list", [[1, 2], [3, 4]]),
    ("float", 1.5),
    ("int", 3),
    ("bool", True),
    ("complex", 1j),
    ("NumPy scalar", np.float64(2.0)),
]


@pytest.mark.parametrize(("name", "value"), PYTHON_DATA, ids=[d[0] for d in PYTHON_DATA])
def test_python_data_raises_value_error(backend: str, name: str, value: Any) -> None:
    with pytest.raises(ValueError, match=r"copy=False, but a .* becomes an array only by a copy"):
        ivy.asarray(value, copy=False)
    assert ivy.asarray(value).shape == np.asarray(value).shape  # copy=None still converts


@pytest.mark.parametrize(
    "make",
    [
        lambda: aligned_copy(np.arange(4, dtype=np.int32)),
        lambda: ivy.asarray([1, 2], dtype=ivy.int32),
    ],
    ids=["NumPy array", "ivy.Array"],
)
def test_another_dtype_raises_value_error(backend: str, make: Callable[[], Any]) -> None:
    with pytest.raises(ValueError, match="int32 becomes float64 only by a copy"):
        ivy.asarray(make(), dtype=ivy.float64, copy=False)


DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "float32", "float64", "complex64"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_compact_aligned_numpy_memory_is_shared(backend: str, dtype: str) -> None:
    source = aligned_copy(np.arange(6).reshape(2, 3).astype(dtype))
    x = ivy.asarray(source, copy=False)
    assert x.dtype == dtype
    source[1, 2] = 0 if dtype == "bool" else 42  # a write to NumPy's memory shows in x
    np.testing.assert_array_equal(npy(x), source)
    same = ivy.asarray(source, dtype=dtype, copy=False)  # the dtype it has: no conversion
    np.testing.assert_array_equal(npy(same), source)


UNSHAREABLE: list[tuple[str, Callable[[], np.ndarray]]] = [
    ("off a 64-byte boundary", lambda: aligned_copy(np.arange(9.0))[1:]),
    ("strided", lambda: aligned_copy(np.arange(8.0))[::2]),
    ("negative stride", lambda: aligned_copy(np.arange(8.0))[::-1]),
    ("transposed", lambda: aligned_copy(np.arange(6.0).reshape(2, 3)).T),
]
SHARED_LAYOUTS = {
    "numpy": {"off a 64-byte boundary", "strided", "negative stride", "transposed"},
    "torch": {"off a 64-byte boundary", "strided", "transposed"},
}
"""What a backend's arrays can view in place (PyTorch has no negative strides)."""


@pytest.mark.parametrize(("name", "make"), UNSHAREABLE, ids=[u[0] for u in UNSHAREABLE])
def test_memory_the_backend_cannot_share_raises_value_error(
    backend: str, name: str, make: Callable[[], np.ndarray]
) -> None:
    source = make()
    if name in SHARED_LAYOUTS.get(backend, set()):  # a view of NumPy's memory
        x = ivy.asarray(source, copy=False)
        source.flat[0] = 42
        assert npy(x).flat[0] == 42
        return
    with pytest.raises(ValueError, match="copy=False"):
        ivy.asarray(source, copy=False)
    np.testing.assert_array_equal(npy(ivy.asarray(source)), source)  # copy=None copies


def test_read_only_memory_is_shared_only_where_the_backend_keeps_it_so(backend: str) -> None:
    """NumPy keeps the flag; JAX's and TensorFlow's importers cannot be told "read-only", and
    a PyTorch tensor never is (see ``test_read_only_memory_is_never_written``)."""
    source = aligned_copy(np.arange(4.0))
    source.flags.writeable = False
    if backend != "numpy":
        with pytest.raises(ValueError, match="read-only"):
            ivy.asarray(source, copy=False)
        return
    np.testing.assert_array_equal(npy(ivy.asarray(source, copy=False)), source)


@pytest.mark.parametrize("importer", ["asarray", "from_dlpack"])
def test_read_only_memory_is_never_written(
    backend: str, importer: str, tmp_path: pathlib.Path
) -> None:
    """A read-only ``mmap`` imported (``copy=None``) and then updated in place: PyTorch
    shared it and the write crashed the process (segmentation fault); JAX and TensorFlow
    refused ``from_dlpack`` of it (a read-only NumPy array cannot be exported to their
    importers) where the standard asks for a copy."""
    path = tmp_path / "values"
    path.write_bytes(np.arange(4.0).tobytes())
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as memory:
        source = np.frombuffer(memory, dtype=np.float64)
        x = getattr(ivy, importer)(source)
        x += 1
        np.testing.assert_array_equal(npy(x), np.arange(4.0) + 1)
        np.testing.assert_array_equal(source, np.arange(4.0))
        del source  # (the mmap closes only once no view of it is left)


def test_an_empty_array_needs_no_copy(backend: str) -> None:
    x = ivy.asarray(np.arange(9.0)[1:1], copy=False)
    assert x.shape == (0,)
    assert x.dtype == ivy.float64


def test_an_array_of_the_backend_is_returned_itself(backend: str) -> None:
    x = ivy.asarray([1.0, 2.0])
    assert ivy.asarray(x, copy=False) is x
    assert ivy.asarray(x, dtype=x.dtype, copy=False) is x
