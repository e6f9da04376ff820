"""Values at the edges of functions' domains, NumPy as the oracle, on the four backends:
small unsigned sums in their own dtype, empty ranges, diagonals beyond the matrix, complex
sets, floats a float32 cannot hold, subnormals moved by repeat, and unusual indices."""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy
from tests.runtime._oracle import check


def test_integer_reductions_in_the_requested_dtype(backend: str) -> None:
    x = np.array([200, 100], dtype=np.uint8)
    a = ivy.asarray(x)
    check(ivy.sum(a, dtype=ivy.uint8), np.sum(x, dtype=np.uint8))
    check(ivy.prod(a, dtype=ivy.uint8), np.prod(x, dtype=np.uint8))
    check(ivy.cumulative_sum(a, dtype=ivy.uint8), np.cumsum(x, dtype=np.uint8))
    check(ivy.sum(a), np.sum(x, dtype=np.uint64))


@pytest.mark.parametrize(("start", "stop", "step"), [(0, -3, 1), (5, 2, 0.5), (1, 4, -1)])
def test_empty_arange(backend: str, start: float, stop: float, step: float) -> None:
    got = ivy.arange(start, stop, step)
    assert got.shape == (0,)


@pytest.mark.parametrize("k", [-(2**63) - 1, 2**63, 7, -7])
def test_eye_diagonal_outside_the_matrix(backend: str, k: int) -> None:
    check(ivy.eye(3, 4, k=k), np.zeros((3, 4), dtype=np.float32))


def test_repeat_counts_of_any_integer_dtype_and_wide_unsigned_values(backend: str) -> None:
    x = np.array([1, 2, 3], dtype=np.uint16)
    counts = np.array([2, 0, 1], dtype=np.int8)
    check(ivy.repeat(ivy.asarray(x), ivy.asarray(counts)), np.repeat(x, counts))


def test_repeat_moves_subnormals_unchanged(backend: str) -> None:
    tiny = np.array([5.7e-305, -5.7e-305, 1e-310], dtype=np.float64)
    check(ivy.repeat(ivy.asarray(tiny), 2), np.repeat(tiny, 2))
    z = np.array([1e-310 + 2j], dtype=np.complex128)
    check(ivy.repeat(ivy.asarray(z), 2, axis=0), np.repeat(z, 2, axis=0))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_unique_of_complex_values(backend: str, dtype: str) -> None:
    x = np.array([1 + 2j, 0j, 1 + 2j, 1 - 1j, 3j], dtype=dtype)
    got = ivy.unique_all(ivy.asarray(x))
    # np.unique sorts (lexicographically for complex), as the runtime does; the standard
    # leaves the order open and np.unique_all may not sort.
    expected = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for field, want in zip(got._fields, expected, strict=True):
        check(getattr(got, field), want.astype(np.int64) if field != "values" else want)
    check(ivy.unique_values(ivy.asarray(x)), expected[0])


def test_full_and_linspace_keep_float64_values(backend: str) -> None:
    check(ivy.full((2,), 16777217.0, dtype=ivy.float64), np.full(2, 16777217.0))
    check(ivy.full_like(ivy.zeros((1,), dtype="float64"), 1e300), np.full(1, 1e300))
    check(ivy.linspace(16777217.0, 0.0, 1, dtype=ivy.float64), np.array([16777217.0]))


def test_indices_from_0d_arrays_masks_of_0d_arrays_and_many_axes(backend: str) -> None:
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = ivy.asarray(x)
    one, three = ivy.asarray(1, dtype="int8"), ivy.asarray(3, dtype="int16")
    check(a[one], x[1])
    check(a[one:three, one], x[1:3, 1])
    s = np.array(7.0, dtype=np.float32)
    check(ivy.asarray(s)[ivy.asarray(False)], s[np.False_])
    check(ivy.asarray(s)[ivy.asarray(True)], s[np.True_])
    deep = np.arange(2, dtype=np.int64).reshape((2,) + (1,) * 8)
    check(ivy.asarray(deep)[1], deep[1])


def test_mask_assignment_into_a_0d_array(backend: str) -> None:
    x, y = ivy.asarray(1.0), ivy.asarray(1.0)
    x[ivy.asarray(True)] = ivy.asarray([5.0])
    y[ivy.asarray(False)] = 7.0
    check(x, np.array(5.0, dtype=np.float32))
    check(y, np.array(1.0, dtype=np.float32))


def test_squeeze_of_no_axis_changes_nothing(backend: str) -> None:
    x = np.zeros((1, 2, 1), dtype=np.float32)
    check(ivy.squeeze(ivy.asarray(x), axis=()), np.squeeze(x, axis=()))


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_mask_and_integer_writes_into_wide_unsigned(backend: str, dtype: str) -> None:
    x = np.array([1, 2, 3], dtype=dtype)
    a = ivy.asarray(x)
    big = np.iinfo(np.dtype(dtype)).max
    a[ivy.asarray([True, False, True])] = ivy.asarray(big, dtype=dtype)
    a[1] = 7
    x[[True, False, True]] = big
    x[1] = 7
    check(a, x)


def test_empty_mask_of_an_empty_array(backend: str) -> None:
    x = np.zeros((0, 0, 0), dtype=bool)
    check(ivy.asarray(x)[ivy.asarray(x)], x[x])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_logarithms_of_large_moduli(backend: str, dtype: str) -> None:
    """TensorFlow's vectorised complex log squares |z| and overflows (a NaN real part) where
    log|z| is finite; the special values beside them keep the standard's answers."""
    big = 3e19 if dtype == "complex64" else 9.48075191e153
    values = np.array(
        [big + big * 1j, 0j, -big + 1j, 1 + 1j, complex(np.inf, np.nan), complex(np.nan, 1)],
        dtype=dtype,
    )
    x = ivy.asarray(values)
    with np.errstate(all="ignore"):
        for name in ("log", "log2", "log10"):
            np.testing.assert_allclose(
                ivy.to_numpy(getattr(ivy, name)(x)), getattr(np, name)(values), rtol=1e-6
            )


def test_signed_zeros_of_python_scalars_keep_their_sign(backend: str) -> None:
    """TensorFlow's eager scalar cache keys Python scalars by value (-0.0 == 0.0): after a
    -0.0 was converted, a 0.0 of the same dtype came back as -0.0. Both orders, as arrays,
    as operands, as linspace's start; NumPy the oracle."""
    for first, second in ((-0.0, 0.0), (0.0, -0.0)):
        for dtype in (None, ivy.float32, ivy.float64):
            ivy.asarray(first, dtype=dtype)
            got = ivy.to_numpy(ivy.asarray(second, dtype=dtype))
            assert np.signbit(got) == np.signbit(second), (first, second, dtype)
        zero = ivy.zeros(())
        ivy.add(zero, first)
        for name in ("add", "subtract"):
            got = ivy.to_numpy(getattr(ivy, name)(second, zero))
            want = getattr(np, name)(np.float32(second), np.float32(0.0))
            assert np.signbit(got) == np.signbit(want), (name, first, second)
    ivy.asarray(complex(-0.0, -0.0))
    got = ivy.to_numpy(ivy.asarray(0j))
    assert not np.signbit(got.real) and not np.signbit(got.imag)
    ivy.asarray(-0.0, dtype=ivy.float64)
    assert not np.signbit(ivy.to_numpy(ivy.linspace(0.0, 1.0, 3))[0])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_power_of_zero(backend: str, dtype: str) -> None:
    """0 ** z is 1 for z = 0, 0 for a positive real part, NaN + NaN j otherwise, as in NumPy
    (the kernels' exp(z * log(0)) gave NaN on JAX for 0 ** (1 + 1j), inf + nan j on PyTorch
    and TensorFlow for 0 ** -1); a nonzero base keeps the kernel's value."""
    pairs = [(0j, 1 + 1j), (0j, 2), (0j, 0j), (0j, -1), (0j, 1j), (0j, 0.5 - 3j)]
    pairs += [(complex(-0.0, 0.0), 1 + 1j), (1 + 1j, 2 - 1j), (complex(np.nan, 1), 0j)]
    base = np.array([b for b, _ in pairs], dtype=dtype)
    exponent = np.array([e for _, e in pairs], dtype=dtype)
    with np.errstate(all="ignore"):
        want = np.power(base, exponent)
    got = ivy.to_numpy(ivy.pow(ivy.asarray(base), ivy.asarray(exponent)))
    np.testing.assert_allclose(got, want, rtol=1e-5)
    scalar_base = ivy.to_numpy(ivy.pow(ivy.asarray(base[:1]), ivy.asarray(exponent)))  # broadcast
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(scalar_base, np.power(base[:1], exponent), rtol=1e-5)


def test_uint64_floor_divide_and_remainder_over_the_whole_range(backend: str) -> None:
    """Every pair of uint64 values around 2**62, 2**63 and 2**64 (PyTorch computes them on
    the int64 bits, where 2**63 and more are negative: 0 % 2**63 gave 2**63)."""
    values = [0, 1, 2, 3, 5, 2**62, 2**62 + 7, 2**63 - 1, 2**63, 2**63 + 1, 2**63 + 3]
    values += [2**64 - 2, 2**64 - 1, 12345678901234567890]
    grid = np.array(values, dtype=np.uint64)
    x1, x2 = np.repeat(grid, len(grid)), np.tile(grid, len(grid))
    x1, x2 = x1[x2 != 0], x2[x2 != 0]
    a, b = ivy.asarray(x1), ivy.asarray(x2)
    np.testing.assert_array_equal(ivy.to_numpy(ivy.remainder(a, b)), x1 % x2)
    np.testing.assert_array_equal(ivy.to_numpy(ivy.floor_divide(a, b)), x1 // x2)
    small = ivy.asarray(np.zeros(len(x2), dtype=np.uint8))  # promoted to uint64
    np.testing.assert_array_equal(ivy.to_numpy(ivy.remainder(small, b)), np.zeros_like(x2))
