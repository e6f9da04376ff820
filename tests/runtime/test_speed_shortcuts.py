"""The short paths of ``linalg.trace``, ``sum``, ``max``/``min`` and ``matmul`` give what the
standard says, on every backend, NumPy as the oracle.

Those paths skip work for the common case (one native ``trace`` call, a full ``sum`` or
``max`` with no keywords, operands of one dtype), so each test crosses the boundary of the
short path: equal and mixed operand dtypes, bool/signed/unsigned/float inputs (whose sums
accumulate in different dtypes), ``dtype=``, offsets, batch dimensions, ``axis``/``keepdims``/
``out``. Float values are small integers, so every summation order gives the same result.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import npy

INPUT_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
INPUT_DTYPES += ("float32", "float64")


def _values(dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """Distinct small values of ``dtype`` (negative ones for signed and float dtypes)."""
    n = int(np.prod(shape))
    raw = (np.arange(n) * 7) % 23
    if dtype == "bool":
        return (raw % 3 == 0).reshape(shape)
    if dtype.startswith("u"):
        return raw.astype(dtype).reshape(shape)
    return (raw - 11).astype(dtype).reshape(shape)


def _assert_same(result: ivy.Array, expected: np.ndarray) -> None:
    assert isinstance(result, ivy.Array)
    assert str(result.dtype) == str(expected.dtype)
    np.testing.assert_array_equal(npy(result), expected)


@pytest.mark.parametrize("dtype", INPUT_DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (2, 1, 4, 4)])
@pytest.mark.parametrize("offset", [0, 1, -2, 6])
def test_trace_accumulates_like_sum(backend: str, dtype: str, shape: tuple, offset: int) -> None:
    values = _values(dtype, shape)
    expected = np.trace(values, offset=offset, axis1=-2, axis2=-1)
    _assert_same(ivy.linalg.trace(ivy.asarray(values), offset=offset), np.asarray(expected))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint8", "uint64", "float32"])
@pytest.mark.parametrize("to", ["int32", "int64", "uint64", "float32", "float64"])
@pytest.mark.parametrize("offset", [0, -1])
def test_trace_honours_dtype(backend: str, dtype: str, to: str, offset: int) -> None:
    values = _values(dtype, (2, 4, 4))
    if to.startswith("u"):
        values = abs(values)  # no negative value cast to an unsigned dtype
    expected = np.trace(values, offset=offset, axis1=-2, axis2=-1, dtype=to)
    result = ivy.linalg.trace(ivy.asarray(values), offset=offset, dtype=getattr(ivy, to))
    _assert_same(result, expected)


def test_trace_of_an_empty_diagonal_is_zero_in_the_accumulation_dtype(backend: str) -> None:
    for dtype, expected in (("int16", "int64"), ("uint8", "uint64"), ("float32", "float32")):
        result = ivy.linalg.trace(ivy.asarray(_values(dtype, (3, 0))))
        _assert_same(result, np.zeros((), expected))


def test_trace_writes_out(backend: str) -> None:
    out = ivy.zeros((2,), dtype=ivy.int64)
    assert ivy.linalg.trace(ivy.asarray(_values("int32", (2, 3, 3))), out=out) is out
    _assert_same(out, np.trace(_values("int32", (2, 3, 3)), axis1=-2, axis2=-1))


@pytest.mark.parametrize("dtype", INPUT_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, -1, (), (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_sum_accumulates_in_the_standard_dtype(
    backend: str, dtype: str, axis: object, keepdims: bool
) -> None:
    values = _values(dtype, (3, 4))
    expected = np.sum(values, axis=axis, keepdims=keepdims)  # type: ignore[call-overload]
    result = ivy.sum(ivy.asarray(values), axis=axis, keepdims=keepdims)  # type: ignore[arg-type]
    _assert_same(result, np.asarray(expected))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint8", "uint32", "float32"])
@pytest.mark.parametrize("to", ["int32", "int64", "uint64", "float64"])
def test_sum_honours_dtype(backend: str, dtype: str, to: str) -> None:
    values = _values(dtype, (2, 5))
    if to.startswith("u"):
        values = abs(values)
    expected = np.sum(values, dtype=to)
    _assert_same(ivy.sum(ivy.asarray(values), dtype=getattr(ivy, to)), np.asarray(expected))


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64"])
def test_full_sum_writes_out_in_its_dtype(backend: str, dtype: str) -> None:
    values = _values(dtype, (3, 3))
    expected = np.asarray(np.sum(values))
    out = ivy.zeros((), dtype=getattr(ivy, str(expected.dtype)))
    assert ivy.sum(ivy.asarray(values), out=out) is out
    _assert_same(out, expected)


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64", "float32"])
@pytest.mark.parametrize("axis", [None, 1, ()])
def test_max_and_min_keep_the_dtype(backend: str, dtype: str, axis: object) -> None:
    values = _values(dtype, (3, 4))
    if dtype == "uint64":
        values[1, 2] = 2**64 - 1  # above int64: the order of the unsigned values
    x = ivy.asarray(values)
    _assert_same(ivy.max(x, axis=axis), np.asarray(np.max(values, axis=axis)))  # type: ignore[arg-type]
    _assert_same(ivy.min(x, axis=axis), np.asarray(np.min(values, axis=axis)))  # type: ignore[arg-type]


def test_full_max_propagates_nan_and_writes_out(backend: str) -> None:
    values = np.array([1.0, np.nan, 3.0], dtype=np.float32)
    assert np.isnan(npy(ivy.max(ivy.asarray(values))))
    assert np.isnan(npy(ivy.min(ivy.asarray(values))))
    out = ivy.zeros((), dtype=ivy.float32)
    assert ivy.max(ivy.asarray(values[[0, 2]]), out=out) is out
    _assert_same(out, np.asarray(np.float32(3.0)))


MATMUL_PAIRS = [
    ("float32", "float32"),
    ("float64", "float64"),
    ("int32", "int32"),
    ("uint8", "uint8"),
    ("uint64", "uint64"),
    ("float32", "float64"),
    ("int8", "int32"),
    ("uint8", "int16"),
    ("uint16", "uint32"),
]


@pytest.mark.parametrize(("dtype1", "dtype2"), MATMUL_PAIRS)
@pytest.mark.parametrize(("shape1", "shape2"), [((3, 4), (4, 2)), ((2, 3, 4), (4,)), ((4,), (4,))])
def test_matmul_promotes_as_the_standard(
    backend: str, dtype1: str, dtype2: str, shape1: tuple, shape2: tuple
) -> None:
    a, b = abs(_values(dtype1, shape1)), abs(_values(dtype2, shape2)[::-1])
    _assert_same(ivy.matmul(ivy.asarray(a), ivy.asarray(b)), np.asarray(np.matmul(a, b)))


@pytest.mark.parametrize(("dtype1", "dtype2"), [("float32", "float32"), ("int8", "int32")])
def test_matmul_writes_out(backend: str, dtype1: str, dtype2: str) -> None:
    a, b = _values(dtype1, (3, 4)), _values(dtype2, (4, 2))
    expected = np.matmul(a, b)
    out = ivy.zeros((3, 2), dtype=getattr(ivy, str(expected.dtype)))
    assert ivy.matmul(ivy.asarray(a), ivy.asarray(b), out=out) is out
    _assert_same(out, expected)
