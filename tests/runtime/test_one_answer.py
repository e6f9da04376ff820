"""One dtype, one value or one error class on all four backends (issue 38).

Each case answered differently on at least one backend before: integer division by zero,
``int8 + 300``, integer powers with a negative exponent, ``mean`` of integers, ``-0.0`` in a
descending sort, ``searchsorted`` of NaN, ``fft.ifft`` of a real array, ``out=`` aliasing an
input, ``copy=False`` where only a copy converts, ``asarray`` of another dtype or of
strings, and item assignment of a NumPy scalar. The choices are in docs/runtime.md ("One
answer on every backend").
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import npy

NAN = float("nan")


@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_integer_division_by_zero_is_zero(backend: str, name: str) -> None:
    x1, x2 = ivy.asarray([5, -5, 0, 7]), ivy.asarray([0, 0, 0, 2])
    expected = [0, 0, 0, 3] if name == "floor_divide" else [0, 0, 0, 1]
    ret = getattr(ivy, name)(x1, x2)
    assert ret.dtype == ivy.int64
    assert npy(ret).tolist() == expected


def test_fmod_by_zero_is_zero(backend: str) -> None:
    ret = ivy.remainder(ivy.asarray([5, -5]), ivy.asarray([0, 3]), modulus=False)
    assert npy(ret).tolist() == [0, -2]


@pytest.mark.parametrize("value", [300, -129, 2**70])
def test_a_python_int_out_of_the_arrays_range_raises_overflow_error(
    backend: str, value: int
) -> None:
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        ivy.add(ivy.asarray([1], dtype=ivy.int8), value)


def test_a_python_int_in_range_still_adds(backend: str) -> None:
    assert npy(ivy.asarray([1], dtype=ivy.int8) + 126).tolist() == [127]
    assert npy(ivy.asarray([1], dtype=ivy.uint8) + 200).tolist() == [201]


@pytest.mark.parametrize(
    "exponent", [ivy.asarray, lambda v: v[0]], ids=["array exponent", "Python int exponent"]
)
def test_integer_pow_with_a_negative_exponent_raises_value_error(
    backend: str, exponent: object
) -> None:
    with pytest.raises(ValueError, match="negative integer powers"):
        ivy.pow(ivy.asarray([2, 1]), exponent([-1, -1]))  # type: ignore[operator]


def test_a_failed_integer_pow_leaves_out_unchanged(backend: str) -> None:
    out = ivy.asarray([7, 7, 7], dtype=ivy.int8)
    base = ivy.asarray([2, 3, 4], dtype=ivy.int8)
    with pytest.raises(ValueError):
        ivy.pow(base, ivy.asarray([2, -1, 2], dtype=ivy.int8), out=out)
    assert npy(out).tolist() == [7, 7, 7]


def test_integer_pow_with_non_negative_exponents_still_answers(backend: str) -> None:
    assert npy(ivy.pow(ivy.asarray([2, 3]), ivy.asarray([3, 0]))).tolist() == [8, 1]


@pytest.mark.parametrize("dtype", ["int32", "int8", "uint16"])
def test_mean_of_integers_is_float64(backend: str, dtype: str) -> None:
    ret = ivy.mean(ivy.asarray([1, 2], dtype=dtype))
    assert ret.dtype == ivy.float64
    assert float(npy(ret)) == 1.5


def _signs(x: ivy.Array) -> list[str]:
    return [str(v) for v in npy(x).tolist()]


def test_a_descending_sort_keeps_equal_zeros_in_their_order(backend: str) -> None:
    x = ivy.asarray([0.0, -0.0, 1.0, 0.0, -0.0])
    assert _signs(ivy.sort(x, descending=True)) == ["1.0", "0.0", "-0.0", "0.0", "-0.0"]
    assert npy(ivy.argsort(x, descending=True)).tolist() == [2, 0, 1, 3, 4]


def test_a_descending_sort_puts_nan_first(backend: str) -> None:
    ret = _signs(ivy.sort(ivy.asarray([1.0, NAN, 0.0, 3.0]), descending=True))
    assert ret == ["nan", "3.0", "1.0", "0.0"]


@pytest.mark.parametrize(("side", "expected"), [("left", [2, 1, 1, 0]), ("right", [4, 1, 2, 0])])
def test_searchsorted_reads_nan_as_the_largest_value_as_sort_does(
    backend: str, side: str, expected: list[int]
) -> None:
    x1 = ivy.sort(ivy.asarray([NAN, 1.0, NAN, math.inf]))  # [1, inf, nan, nan]
    x2 = ivy.asarray([NAN, 3.0, math.inf, 0.5])
    assert npy(ivy.searchsorted(x1, x2, side=side)).tolist() == expected


@pytest.mark.parametrize("name", ["fft", "ifft", "fftn", "ifftn"])
def test_a_complex_transform_of_a_real_array_is_a_plain_complex_array(
    backend: str, name: str
) -> None:
    values = np.array([1.0, 2.0, 3.0], np.float32)
    ret = getattr(ivy.fft, name)(ivy.asarray(values))
    assert ret.dtype == ivy.complex64
    expected = getattr(np.fft, name)(values.astype(np.complex64))
    np.testing.assert_allclose(npy(ret), expected, rtol=1e-5, atol=1e-6)
    assert "j" in repr(ret)  # a conjugate view (PyTorch) could not be printed


def test_matmul_into_an_out_that_is_its_input_gives_the_product(backend: str) -> None:
    x = ivy.reshape(ivy.arange(18, dtype=ivy.float32), (2, 3, 3))
    expected = npy(x) @ npy(x)
    ivy.matmul(x, x, out=x)
    np.testing.assert_array_equal(npy(x), expected)


def test_an_out_overlapping_an_input_gives_the_no_alias_answer(backend: str) -> None:
    x = ivy.arange(5)
    ivy.add(x[:-1], 1, out=x[1:])
    assert npy(x).tolist() == [0, 1, 2, 3, 4]


def test_an_out_that_is_the_input_is_still_written(backend: str) -> None:
    x = ivy.arange(5)
    ivy.add(x, 1, out=x)
    assert npy(x).tolist() == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "source",
    [lambda: ivy.asarray([1], dtype=ivy.int32), lambda: np.array([1], np.int32)],
    ids=["ivy array", "numpy array"],
)
def test_copy_false_refuses_a_dtype_conversion(backend: str, source: object) -> None:
    with pytest.raises(ValueError, match="copy=False"):
        ivy.asarray(source(), dtype=ivy.float64, copy=False)  # type: ignore[operator]


def test_asarray_of_an_array_with_another_dtype_converts(backend: str) -> None:
    ret = ivy.asarray(ivy.asarray([1, 2]), dtype=ivy.float64)
    assert ret.dtype == ivy.float64
    assert npy(ret).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("data", [["yes", "no"], np.array(["a"]), [b"x"]])
def test_asarray_of_strings_raises_a_clear_type_error(backend: str, data: object) -> None:
    with pytest.raises(ivy.IvyTypeError, match="strings"):
        ivy.asarray(data)


@pytest.mark.parametrize("value", [np.float64(0.0), np.float32(0.0), np.int64(0)])
def test_a_numpy_scalar_assigned_through_a_mask(backend: str, value: object) -> None:
    x = ivy.asarray([1.0, 2.0, 3.0])
    x[x > 1] = value
    assert x.dtype == ivy.float32
    assert npy(x).tolist() == [1.0, 0.0, 0.0]


def _f32(*values: float) -> ivy.Array:
    return ivy.asarray(list(values), dtype=ivy.float32)


ERRSTATE_FAILURES = {
    # a ufunc given out's buffer (the hot tier's NATIVE, then ``with_out``)
    "add": (lambda f, o: f(_f32(3e38, 1), _f32(3e38, 1), out=o), (2,)),
    "divide": (lambda f, o: f(_f32(1, 2), _f32(1, 0), out=o), (2,)),
    "log": (lambda f, o: f(_f32(1, -1), out=o), (2,)),
    # a float64 result cast into a float32 out
    "add, cast": (
        lambda f, o: f(ivy.asarray([1e300, 1.0]), ivy.asarray([1.0, 1.0]), out=o),
        (2,),
    ),
    # functions whose native out the backend is asked about (``check_native_out``)
    "sum": (lambda f, o: f(_f32(3e38, 3e38), out=o), ()),
    "matmul": (lambda f, o: f(_f32(3e38, 3e38)[None], _f32(3e38, 3e38)[:, None], out=o), (1, 1)),
}


@pytest.mark.parametrize("mode", ["raise", "call"])
@pytest.mark.parametrize("path", ["C", "Python"])
@pytest.mark.parametrize("case", sorted(ERRSTATE_FAILURES))
def test_a_floating_point_error_raised_after_writing_leaves_out_unchanged(
    case: str, path: str, mode: str
) -> None:
    """Under ``np.seterr(all="raise")`` (or ``"call"`` with a handler that raises) NumPy's
    ufuncs compute into ``out`` and raise after: the runtime computes first there, so a
    failed update changes nothing, C path or Python path, and the native ``out`` serves
    again once the state is back."""
    call, shape = ERRSTATE_FAILURES[case]
    name = case.split(",")[0].split()[0]

    def handler(kind: str, flag: int) -> None:
        raise FloatingPointError(kind)

    with ivy.using_backend("numpy"):
        fn = getattr(ivy, name)
        if path == "Python":
            fn = getattr(fn, "__ivy_general__", fn)
        out = ivy.full(shape, 7.0, dtype=ivy.float32)
        old = np.seterrcall(handler)
        try:
            with (
                np.errstate(all=mode),
                pytest.raises(ivy.IvyBackendException, match=r"overflow|divide|invalid"),
            ):
                call(fn, out)
        finally:
            np.seterrcall(old)
        assert npy(out).tolist() == np.full(shape, 7.0).tolist()
        with np.errstate(all="ignore"):
            assert call(fn, out) is out
        assert npy(out).tolist() != np.full(shape, 7.0).tolist()


TRANSFORMS_1D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
TRANSFORMS_ND = ["fftn", "ifftn", "rfftn", "irfftn"]


@pytest.mark.parametrize("name", TRANSFORMS_1D + TRANSFORMS_ND)
def test_a_transform_of_no_data_points_raises_value_error(backend: str, name: str) -> None:
    """An empty axis (``2 * (0 - 1)`` output points for a half spectrum) or ``n=0``: NumPy and
    TensorFlow raised ``ValueError``, PyTorch
    ``RuntimeError``, JAX gave an empty array (``fft``) or an error naming the caller's
    source line (``rfft`` of an empty uint8 array): one ``ValueError`` everywhere."""
    fn = getattr(ivy.fft, name)
    no_points = {"s": (0,)} if name in TRANSFORMS_ND else {"n": 0}
    for x, kwargs in [
        (ivy.asarray([], dtype=ivy.float32), {}),
        (ivy.zeros((2, 0), dtype=ivy.uint8), {}),
        (ivy.ones((3,)), no_points),
    ]:
        with pytest.raises(ValueError, match=r"invalid number of data points \(-?[02]\)"):
            fn(x, **kwargs)


@pytest.mark.parametrize("name", ["irfft", "hfft"])
def test_half_spectrum_transforms_of_one_point_raise_value_error(backend: str, name: str) -> None:
    """``irfft``/``hfft`` of one point would give ``2 * (1 - 1) = 0`` points."""
    with pytest.raises(ValueError, match=r"invalid number of data points \(0\)"):
        getattr(ivy.fft, name)(ivy.asarray([1.0 + 0j]))
    assert getattr(ivy.fft, name)(ivy.asarray([1.0 + 0j]), n=2).shape == (2,)


@pytest.mark.parametrize("size", [3, 5000, 10001])
@pytest.mark.parametrize("name", ["min", "max"])
def test_min_and_max_of_values_with_a_nan_are_nan(backend: str, name: str, size: int) -> None:
    """XLA's CPU reduction lost the NaN of a few thousand sorted values (``min`` gave ``inf``
    at 5000 elements, the least number at 10001): NaN on every backend, whole or per axis."""
    values = np.sort(np.concatenate([np.linspace(0.0, 1.0, size - 1), [NAN]]))
    fn = getattr(ivy, name)
    assert math.isnan(float(npy(fn(ivy.asarray(values)))))
    rows = np.stack([values, np.linspace(0.0, 1.0, size)])
    assert np.isnan(npy(fn(ivy.asarray(rows), axis=1))).tolist() == [True, False]
    assert npy(fn(ivy.asarray(rows), axis=-1, keepdims=True)).shape == (2, 1)
