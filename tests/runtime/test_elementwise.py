"""Every elementwise function of the 2023.12 standard against NumPy on the four backends.

NumPy is the oracle for values and dtypes: NumPy 2's promotion is the standard's on the pairs
drawn here (one kind, or signed with unsigned integers; Python scalars weak). Special values
(NaN, +-inf, -0.0) are drawn on purpose; ``out`` is keyword-only, keeps its dtype and buffer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivycheck.runtime as ivy
from ivycheck.runtime.functional import elementwise

# 20 draws (30 before every function got fixed cases in test_every_function.py; these
# draws add random special values and dtypes to them).
FAST = settings(  # the backend fixture holds for every example: it only selects the backend
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INT = SIGNED + UNSIGNED
REAL = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
FLOATING = REAL + COMPLEX
NUMERIC = INT + FLOATING

UNARY: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("abs", "negative", "positive", "square", "sign", "round"), NUMERIC),
    **dict.fromkeys(("isfinite", "isinf", "isnan"), NUMERIC),
    **dict.fromkeys(("ceil", "floor", "trunc"), INT + REAL),
    **dict.fromkeys(("acos", "acosh", "asin", "asinh", "atan", "atanh"), FLOATING),
    **dict.fromkeys(("cos", "cosh", "sin", "sinh", "tan", "tanh"), FLOATING),
    **dict.fromkeys(("exp", "expm1", "log", "log1p", "log2", "log10", "sqrt"), FLOATING),
    "signbit": REAL,
    "bitwise_invert": ("bool", *INT),
    "logical_not": ("bool",),
    **dict.fromkeys(("real", "imag", "conj"), COMPLEX),
}
BINARY: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("add", "subtract", "multiply", "equal", "not_equal"), NUMERIC),
    "divide": FLOATING,
    "pow": FLOATING,
    **dict.fromkeys(("less", "less_equal", "greater", "greater_equal"), INT + REAL),
    **dict.fromkeys(("maximum", "minimum", "floor_divide", "remainder"), INT + REAL),
    **dict.fromkeys(("atan2", "copysign", "hypot", "logaddexp"), REAL),
    **dict.fromkeys(("bitwise_and", "bitwise_or", "bitwise_xor"), ("bool", *INT)),
    **dict.fromkeys(("bitwise_left_shift", "bitwise_right_shift"), INT),
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor"), ("bool",)),
}
SPECIAL = (np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5)
NUMPY_NAMES = {"pow": "power", "bitwise_invert": "invert"}


def test_every_standard_elementwise_function_is_exported() -> None:
    names = {n for n, f in vars(elementwise).items() if hasattr(f, "__ivy_raw__")}
    assert set(UNARY) | set(BINARY) | {"clip"} <= names
    assert all(getattr(ivy, name) is getattr(elementwise, name) for name in names)


def _values(dtype: str, *, shift_of: str | None = None) -> st.SearchStrategy[Any]:
    if dtype.startswith("complex"):  # finite: test_special_cases.py has the standard's tables
        # parts of at least 1e-6 (or zero): the standard leaves accuracy open, and XLA's complex
        # log1p(-1 + 1e-295j) underflows |1 + x|**2 to -inf where NumPy gives -678.8
        width = 32 if dtype == "complex64" else 64
        part = st.floats(-10, 10, width=width).filter(lambda v: v == 0 or abs(v) >= 1e-6)
        return st.builds(complex, part, part)
    if dtype.startswith("float"):
        width = int(dtype[-2:])
        finite = st.floats(-10, 10, width=width, allow_subnormal=False)
        return finite | st.sampled_from(SPECIAL)
    if shift_of is not None:  # a shift amount: non-negative and below the bit width
        return st.integers(0, np.iinfo(shift_of).bits - 1)
    if dtype == "bool":
        return st.booleans()
    info = np.iinfo(dtype)
    return st.integers(int(info.min), int(info.max))


def _array(dtype: str, shape: tuple[int, ...], **kwargs: Any) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(np.dtype(dtype), shape, elements=_values(dtype, **kwargs))


def _oracle(name: str) -> Any:
    return getattr(np, NUMPY_NAMES.get(name, name))


def _check(got: Any, expected: Any, *, zero_signs: bool = True) -> None:
    """Dtype, shape and values of NumPy; the sign of zeros too where the standard fixes it
    (not for ``maximum(0.0, -0.0)`` and friends)."""
    expected = np.asarray(expected)
    assert isinstance(got, ivy.Array)
    assert str(got.dtype) == str(expected.dtype), (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    values = ivy.to_numpy(got)
    if expected.dtype.kind in "fc":
        tol = 2e-4 if expected.dtype in (np.float32, np.complex64) else 1e-9
        np.testing.assert_allclose(values, expected, rtol=tol, atol=tol)
        if zero_signs and expected.dtype.kind == "f":
            np.testing.assert_array_equal(
                np.signbit(values[values == 0]), np.signbit(expected[values == 0])
            )
    else:
        np.testing.assert_array_equal(values, expected)


@FAST
@given(data=st.data())
def test_unary_functions_match_numpy(backend: str, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(UNARY)), label="function")
    dtype = data.draw(st.sampled_from(UNARY[name]), label="dtype")
    x = data.draw(_array(dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))))
    with np.errstate(all="ignore"):
        expected = _oracle(name)(x)
    _check(getattr(ivy, name)(ivy.asarray(x)), expected)


def _binary_dtypes(name: str) -> st.SearchStrategy[tuple[str, str]]:
    """Pairs whose promotion the standard defines: one kind, or signed with unsigned."""
    allowed = BINARY[name]
    same_kind = st.sampled_from(allowed).flatmap(
        lambda a: st.tuples(
            st.just(a), st.sampled_from([b for b in allowed if _kind(b) == _kind(a)])
        )
    )
    mixed = st.tuples(st.sampled_from(SIGNED), st.sampled_from(UNSIGNED[:3])).flatmap(
        st.permutations
    )
    return same_kind | mixed.map(tuple) if set(INT) <= set(allowed) else same_kind


def _kind(dtype: str) -> str:
    return np.dtype(dtype).kind


@FAST
@given(data=st.data())
def test_binary_functions_match_numpy(backend: str, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(BINARY)), label="function")
    d1, d2 = data.draw(_binary_dtypes(name), label="dtypes")
    s1, s2 = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3)
    ).input_shapes
    shift = np.result_type(d1, d2).name if "shift" in name else None
    x1 = data.draw(_array(d1, s1), label="x1")
    x2 = data.draw(_array(d2, s2, shift_of=shift), label="x2")
    if name in ("floor_divide", "remainder") and _kind(d1) in "iu":
        assume(np.all(x2 != 0))  # integer division by zero is undefined
    if name == "pow" and _kind(d1) in "iu":
        assume(np.all((x2 >= 0) & (x2 < 4)))
    if name == "divide" and "c" in _kind(d1) + _kind(d2):
        # The standard's textbook formula makes x / (0 + 0j) NaN; NumPy gives an infinity
        # and XLA/TensorFlow one of another sign: the result is open, not NumPy's.
        assume(np.all(x2 != 0))
    with np.errstate(all="ignore"):
        expected = _oracle(name)(x1, x2)
    got = getattr(ivy, name)(ivy.asarray(x1), ivy.asarray(x2))
    _check(got, expected, zero_signs=name not in ("maximum", "minimum"))


@FAST
@given(data=st.data())
def test_python_scalars_are_weak_on_either_side(backend: str, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["add", "subtract", "multiply", "maximum", "less", "equal"]))
    dtype = data.draw(st.sampled_from(["int8", "uint8", "int16", "float32", "float64"]))
    x = data.draw(_array(dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))))
    scalar = data.draw(
        st.integers(0, 100) if _kind(dtype) in "iu" else _values("float32").map(float)
    )  # float32 values: a float64 subnormal in float32 is one XLA flushes to zero
    signs = name != "maximum"  # maximum(0.0, -0.0) may be either zero
    with np.errstate(all="ignore"):
        _check(
            getattr(ivy, name)(ivy.asarray(x), scalar), _oracle(name)(x, scalar), zero_signs=signs
        )
        _check(
            getattr(ivy, name)(scalar, ivy.asarray(x)), _oracle(name)(scalar, x), zero_signs=signs
        )


@pytest.mark.parametrize(
    ("d0", "d1", "expected"),
    [("int64", "int32", "int64"), ("uint8", "int8", "int16"), ("float64", "float32", "float64")],
)
def test_zero_dim_arrays_promote_like_any_array(
    backend: str, d0: str, d1: str, expected: str
) -> None:
    """PyTorch lets a 0-d tensor give way (0-d int64 + int32 is int32 there); the standard
    does not, and TensorFlow does not promote at all."""
    zero_d, one_d = ivy.asarray(np.asarray(3, d0)), ivy.asarray(np.arange(1, 4, dtype=d1))
    for name in ("add", "multiply", "maximum", "pow", "remainder", "bitwise_or", "less"):
        if name == "bitwise_or" and "float" in d0:
            continue
        want = "bool" if name == "less" else expected
        assert ivy.result_type(zero_d, one_d) == expected
        assert str(getattr(ivy, name)(zero_d, one_d).dtype) == want, name
        assert str(getattr(ivy, name)(one_d, zero_d).dtype) == want, name


@FAST
@given(data=st.data())
def test_clip_keeps_the_dtype_of_x(backend: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(["int8", "uint16", "uint64", "int64", "float32", "float64"]))
    x = data.draw(_array(dtype, data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=3))))
    bound = st.none() | _values(dtype).filter(lambda v: not np.isnan(v))
    low, high = data.draw(bound), data.draw(bound)
    assume(low is None or high is None or low <= high)
    got = ivy.clip(ivy.asarray(x), low, high)
    kwargs = ivy.clip(ivy.asarray(x), min=low, max=high)
    expected = np.clip(x, low, high).astype(dtype)
    _check(got, expected, zero_signs=False)
    _check(kwargs, expected, zero_signs=False)


def test_clip_without_bounds_copies_and_nan_bounds_give_nan(backend: str) -> None:
    x = ivy.asarray(np.array([1.0, -2.0, 3.0], np.float32))
    same = ivy.clip(x)
    _check(same, np.array([1.0, -2.0, 3.0], np.float32))
    assert same is not x
    _check(ivy.clip(x, min=np.nan), np.full(3, np.nan, np.float32))
    _check(
        ivy.clip(x, max=ivy.asarray(np.array([0.0, np.nan, 5.0], np.float32))),
        np.array([0.0, np.nan, 3.0], np.float32),
    )


CASES = {
    "sin": (("float32",), "float64"),
    "floor": (("int16",), "int64"),
    "add": (("int8", "int8"), "int16"),
    "remainder": (("float32", "float32"), "float64"),
    "less": (("uint64", "uint64"), "bool"),
    "bitwise_right_shift": (("uint64", "uint64"), "uint64"),
    "clip": (("float32",), "float64"),
    "round": (("complex64",), "complex128"),
    "real": (("complex64",), "float64"),
    "positive": (("uint32",), "uint32"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_out_is_keyword_only_and_keeps_its_dtype_and_buffer(backend: str, name: str) -> None:
    dtypes, out_dtype = CASES[name]
    args = [ivy.asarray(np.array([3, 1, 2], dtype=d)) for d in dtypes]
    expected = np.asarray(getattr(ivy, name)(*args)).astype(out_dtype)
    out = ivy.zeros((3,), dtype=out_dtype)
    native = out._data
    bounds = [None, None] if name == "clip" else []  # clip's min and max are positional
    with pytest.raises(TypeError):
        getattr(ivy, name)(*args, *bounds, out)
    assert getattr(ivy, name)(*args, out=out) is out
    assert str(out.dtype) == out_dtype
    np.testing.assert_array_equal(ivy.to_numpy(out), expected)
    if backend in ("numpy", "torch"):  # writable natively: the same buffer, written in place
        assert out._data is native


def test_out_of_another_kind_is_refused_before_writing(backend: str) -> None:
    out = ivy.zeros((3,), dtype="int32")
    x = ivy.asarray(np.array([0.5, 1.5, 2.5], np.float32))
    with pytest.raises(ivy.IvyException):
        ivy.sin(x, out=out)
    np.testing.assert_array_equal(ivy.to_numpy(out), np.zeros(3, np.int32))


def test_results_never_alias_their_input(backend: str) -> None:
    """``real``/``positive``/``conj`` are not view functions: on PyTorch the native ones
    return the input itself or a view of it."""
    z = ivy.asarray(np.array([1 + 2j, 3 - 4j], np.complex64))
    x = ivy.asarray(np.array([1.0, 2.0], np.float32))
    results = [ivy.real(z), ivy.imag(z), ivy.conj(z), ivy.positive(x), ivy.clip(x)]
    before = [ivy.to_numpy(r).copy() for r in results]
    ivy.inplace_update(z, ivy.zeros((2,), dtype="complex64"))
    ivy.inplace_update(x, ivy.zeros((2,), dtype="float32"))
    for result, values in zip(results, before, strict=True):
        np.testing.assert_array_equal(ivy.to_numpy(result), values)
