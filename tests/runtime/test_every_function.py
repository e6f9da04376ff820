"""Every function of the namespace, on every backend, against an oracle: the gate's coverage.

One test per (function, backend). Each calls the function on a few fixed inputs -- vectorised
values chosen so that near functions disagree (``trunc`` and ``floor`` on negative fractions,
``log`` and ``log1p``, ``subtract`` and ``add`` with its operands swapped) -- and compares
dtype, shape and values with NumPy (or with the standard where NumPy differs: a Python
``float`` with an integer array gives the default float, float32, on every backend, as
docs/runtime.md says). Binary functions also take Python scalars on either side. Nothing is
drawn: the same calls on every run, and ``test_every_function_has_cases`` fails when a name of
the namespace has none, so a new function cannot go unexercised.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

# -- inputs ------------------------------------------------------------------------------------

_REAL = [-2.5, -1.5, -0.7, -0.0, 0.0, 0.3, 0.5, 0.9, 1.5, 2.5, 3.7, 12.0]
F32 = np.array(_REAL, dtype=np.float32)
F64 = np.array([*_REAL[:-1], np.inf, -np.inf, np.nan], dtype=np.float64)
F32_2D = np.arange(-6, 6, dtype=np.float32).reshape(3, 4) / np.float32(4)
I32 = np.array([-7, -3, -1, 0, 1, 2, 5, 9], dtype=np.int32)
I8 = np.array([-100, -3, -1, 0, 1, 2, 5, 100], dtype=np.int8)
U8 = np.array([0, 1, 2, 5, 9, 200, 254, 255], dtype=np.uint8)
I64 = np.array([-7, -3, -1, 0, 1, 2, 5, 9], dtype=np.int64)
B = np.array([True, False, True, True, False, False, True, False])
C64 = np.array([1 + 2j, -0.5 + 0.25j, 0j, -3 - 1j, 2.5 - 0.5j], dtype=np.complex64)
C128 = C64.astype(np.complex128)
POS = np.array([0.1, 0.5, 1.0, 1.5, 2.0, 4.5, 7.0, 10.0], dtype=np.float32)

# Pairs of arrays (the second broadcasts against the first) and their nonzero divisors.
A2 = np.array([[-3.5, -1.25, 0.0, 2.0, 7.5], [1.0, -2.0, 3.0, -4.0, 5.5]], dtype=np.float32)
B2 = np.array([2.0, -1.5, 0.75, -3.0, 4.0], dtype=np.float32)
IA2 = np.array([[-7, -3, 0, 5, 9], [1, -2, 6, -4, 11]], dtype=np.int32)
IB2 = np.array([2, -3, 4, 3, -5], dtype=np.int32)
SHIFT = np.array([0, 1, 2, 3, 4], dtype=np.int32)

M = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])  # symmetric positive def.
MG = np.array([[2.0, -1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 2.0, -1.5]])  # general, invertible
CUBE = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@dataclass
class Case:
    """``fn(*args, **kwargs)`` on the runtime against ``oracle(*args, **kwargs)`` on NumPy."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    oracle: Callable[..., Any] | None = None
    exact: bool = False
    check: Callable[[Any, tuple[Any, ...]], None] | None = None  # instead of an oracle


CASES: dict[str, list[Case]] = {}


def add(name: str, *args: Any, **kwargs: Any) -> None:
    oracle = kwargs.pop("oracle", None)
    exact = kwargs.pop("exact", False)
    check = kwargs.pop("check", None)
    CASES.setdefault(name, []).append(Case(args, kwargs, oracle, exact, check))


def weak(fn: Callable[..., Any]) -> Callable[..., Any]:
    """NumPy's ``fn`` with a Python float or complex beside an integer or bool array converted
    to the runtime's default dtype of its kind first (float32, complex64): the one place where
    the standard leaves the dtype to the implementation and docs/runtime.md fixes it."""

    def oracle(*args: Any, **kwargs: Any) -> Any:
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        scalars = [a for a in args if type(a) in (float, complex)]
        if arrays and scalars and all(a.dtype.kind in "biu" for a in arrays):
            target = np.complex64 if any(type(s) is complex for s in scalars) else np.float32
            args = tuple(
                a.astype(target)
                if isinstance(a, np.ndarray)
                else target(a)
                if type(a) in (float, complex, int)
                else a
                for a in args
            )
        return fn(*args, **kwargs)

    return oracle


# -- elementwise -------------------------------------------------------------------------------

EXACT_UNARY = {"abs", "ceil", "floor", "trunc", "round", "negative", "positive", "sign"}
UNARY_FLOAT = [
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
    "expm1", "floor", "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10", "negative",
    "positive", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan", "tanh",
    "trunc",
]  # fmt: skip
UNARY_INT = {"abs", "ceil", "floor", "trunc", "round", "negative", "positive", "sign", "square"}
UNARY_COMPLEX = {
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "expm1",
    "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10", "negative", "positive",
    "round", "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh",
}  # fmt: skip
for _name in UNARY_FLOAT:
    _exact = _name in EXACT_UNARY
    add(_name, F32, exact=_exact)
    add(_name, F64, exact=_exact)
    add(_name, F32_2D, exact=_exact)
    if _name in UNARY_INT:
        add(_name, I32, exact=True)
        add(_name, U8, exact=True)
    if _name in UNARY_COMPLEX:
        add(_name, C64)
        add(_name, C128)
for _name in ("conj", "real", "imag"):
    add(_name, C64, exact=True)
    add(_name, C128, exact=True)
add("round", F64 * 3.3, decimals=1, oracle=lambda x, decimals: np.round(x, decimals))
add("round", F32 * 3.3, decimals=2, oracle=lambda x, decimals: np.round(x, decimals))
add("bitwise_invert", I32, exact=True)
add("bitwise_invert", U8, exact=True)
add("bitwise_invert", B, exact=True)
add("logical_not", B, exact=True)

ARITHMETIC = ["add", "subtract", "multiply", "divide", "pow", "maximum", "minimum"]
COMPARISON = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]
FLOAT_ONLY = ["atan2", "copysign", "hypot", "logaddexp"]


for _name in ARITHMETIC + COMPARISON + FLOAT_ONLY + ["remainder", "floor_divide"]:
    _np = weak(getattr(np, _name))
    _exact = _name in COMPARISON or _name in ("maximum", "minimum", "add", "subtract")
    add(_name, A2, B2, oracle=_np, exact=_exact)
    add(_name, B2, A2, oracle=_np, exact=_exact)
    add(_name, A2.astype(np.float64), B2.astype(np.float64), oracle=_np, exact=_exact)
    for scalar in (2, -1.5, 0.5):  # Python scalars on either side
        add(_name, A2, scalar, oracle=_np, exact=_exact)
        add(_name, scalar, A2.astype(np.float64), oracle=_np, exact=_exact)
    if _name not in FLOAT_ONLY and _name != "pow":
        add(_name, IA2, IB2, oracle=_np, exact=_exact)  # (integer results: always exact)
        add(_name, IA2, 3, oracle=_np, exact=_exact)
        add(_name, -3, IB2.astype(np.int8), oracle=_np, exact=_exact)
        add(_name, IA2, 1.5, oracle=_np, exact=_exact)  # the default float, every backend
        add(_name, 2.5, IB2.astype(np.int64), oracle=_np, exact=_exact)
    if _name in ARITHMETIC[:5] or _name in ("equal", "not_equal"):
        add(_name, C64, C64[::-1], oracle=_np)
        add(_name, A2, 1 - 2j, oracle=_np)  # complex scalar, real array
        add(_name, 0.5j, C128, oracle=_np)
add("pow", U8[:4], np.array([2, 1, 0, 3], np.uint8), oracle=np.pow, exact=True)
add("pow", IA2, np.abs(IB2), oracle=np.pow, exact=True)
add("divide", IA2.astype(np.int8), IB2.astype(np.int8), oracle=np.divide)  # integers: float64,
add("divide", U8, 7, oracle=np.divide)  # as NumPy (the standard leaves the dtype open)
add("remainder", IA2, IB2, modulus=True, oracle=lambda a, b, modulus: np.remainder(a, b))
add("remainder", A2, B2, modulus=False, oracle=lambda a, b, modulus: np.fmod(a, b))
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    add(_name, IA2, IB2, exact=True)
    add(_name, U8, np.uint8(6) + U8[::-1], exact=True)
    add(_name, B, B[::-1], exact=True)
    add(_name, IA2, 6, oracle=getattr(np, _name), exact=True)
    add(_name, True, B, oracle=getattr(np, _name), exact=True)
for _name in ("bitwise_left_shift", "bitwise_right_shift"):
    add(_name, IA2, SHIFT, exact=True)
    add(_name, U8[:5], SHIFT.astype(np.uint8), exact=True)
    add(_name, IA2, 2, oracle=getattr(np, _name), exact=True)
for _name in ("logical_and", "logical_or", "logical_xor"):
    add(_name, B, B[::-1], exact=True)
    add(_name, B, True, exact=True)
add("clip", F32, -1.0, 2.0, exact=True)
add("clip", I32, -2, 4, exact=True)
add("clip", F64, None, 0.5, oracle=lambda x, lo, hi: np.clip(x, -np.inf, hi), exact=True)
add("clip", I8, np.int8(-5), np.int8(3), exact=True)
add("where", B[:5], A2, B2, exact=True)
add("where", B[:5], IA2, IB2, exact=True)


# -- creation ----------------------------------------------------------------------------------


def _dtype_of(kwargs: dict[str, Any], default: str) -> Any:
    return np.dtype(kwargs.get("dtype") or default)


add("arange", 5, exact=True, oracle=lambda n: np.arange(n))
add("arange", 1, 7, 2, exact=True, oracle=lambda a, b, s: np.arange(a, b, s))
add("arange", 0.5, 3.0, 0.75, oracle=lambda a, b, s: np.arange(a, b, s, dtype=np.float32))
add("arange", 10, 0, -3, dtype="int8", exact=True, oracle=np.arange)
add("zeros", (2, 3), exact=True, oracle=lambda s: np.zeros(s, np.float32))
add("zeros", (4,), dtype="int16", exact=True, oracle=np.zeros)
add("ones", (3, 1), exact=True, oracle=lambda s: np.ones(s, np.float32))
add("ones", 2, dtype="complex128", exact=True, oracle=np.ones)
add("full", (2, 2), 1.5, exact=True, oracle=lambda s, v: np.full(s, v, np.float32))
add("full", (3,), 7, exact=True, oracle=lambda s, v: np.full(s, v, np.int64))
add("full", (2,), True, exact=True, oracle=lambda s, v: np.full(s, v, np.bool_))
add("full", (2,), 1 - 1j, exact=True, oracle=lambda s, v: np.full(s, v, np.complex64))
add("full", (2,), 3, dtype="uint8", exact=True, oracle=np.full)
add("eye", 3, exact=True, oracle=lambda n: np.eye(n, dtype=np.float32))
add("eye", 3, 4, k=1, dtype="int32", exact=True, oracle=np.eye)
add("eye", 2, 4, k=-1, exact=True, oracle=lambda n, m, k: np.eye(n, m, k, np.float32))
add("linspace", 0.0, 1.0, 5, oracle=lambda a, b, n: np.linspace(a, b, n, dtype=np.float32))
add("linspace", -2, 3, 4, endpoint=False, dtype="float64", oracle=np.linspace)
add("zeros_like", F32, exact=True)
add("zeros_like", I8, exact=True)
add("ones_like", C64, exact=True)
add("ones_like", U8, dtype="float64", exact=True)
add("full_like", I32, 4, exact=True)
add("full_like", F32, 0.25, dtype="float64", exact=True)
add("tril", F32_2D, exact=True)
add("tril", F32_2D, k=1, exact=True)
add("triu", I32.reshape(2, 4), exact=True)
add("triu", F32_2D, k=-1, exact=True)
add("meshgrid", F32[:3], F32[3:5], exact=True)
add("meshgrid", I32[:2], I32[2:5], indexing="ij", exact=True)
add("copy_array", F64, exact=True, oracle=np.copy)
add("copy_array", B, exact=True, oracle=np.copy)
add("asarray", [1, 2, 3], exact=True, oracle=lambda v: np.asarray(v, np.int64))
add("asarray", [1.5, -2.0], exact=True, oracle=lambda v: np.asarray(v, np.float32))
add("asarray", [[True], [False]], exact=True, oracle=np.asarray)
add("asarray", 1j, exact=True, oracle=lambda v: np.asarray(v, np.complex64))
add("asarray", [1, 2], dtype="float64", exact=True, oracle=np.asarray)
add("asarray", F64, exact=True, oracle=np.asarray)
add("array", [[1, 2], [3, 4]], exact=True, oracle=lambda v: np.asarray(v, np.int64))
add("array", 2.5, exact=True, oracle=lambda v: np.asarray(v, np.float32))


def _empty_check(got: Any, args: tuple[Any, ...]) -> None:
    expected_shape = args[0] if isinstance(args[0], tuple) else (args[0],)
    assert got.shape == expected_shape
    assert str(got.dtype) == "float32"


def _empty_like_check(got: Any, args: tuple[Any, ...]) -> None:
    assert got.shape == args[0].shape
    assert str(got.dtype) == str(args[0].dtype)


add("empty", (2, 3), check=_empty_check)
add("empty_like", I8, check=_empty_like_check)
add("empty_like", C64, check=_empty_like_check)


def _from_dlpack_check(got: Any, args: tuple[Any, ...]) -> None:
    """Values and dtype of the source; on the backends whose arrays can be written (NumPy,
    PyTorch), a write to the source shows in the result: the standard's ``from_dlpack`` is a
    view (``copy=None`` never copies when it need not). JAX and TensorFlow arrays cannot be
    written in place, so there a copy cannot be told from a view."""
    source = args[1]
    assert str(got.dtype) == str(source.dtype)
    np.testing.assert_array_equal(ivy.to_numpy(got), ivy.to_numpy(source))
    if ivy.current_backend_str() in ("numpy", "torch"):
        native = ivy.to_native(source)
        native[0] = native[1] if native[0] != native[1] else native[2]
        np.testing.assert_array_equal(
            ivy.to_numpy(got), ivy.to_numpy(source), err_msg="from_dlpack copied its source"
        )


# -- reductions, searching, sorting, sets, utility -------------------------------------------

for _name in ("sum", "prod", "max", "min", "mean", "std", "var"):
    _kinds = [F32_2D, F64[:10].reshape(2, 5)]
    if _name in ("sum", "prod", "max", "min"):
        _kinds += [I8.reshape(2, 4), U8.reshape(2, 4), I32.reshape(4, 2)]
    if _name in ("sum", "prod", "mean"):
        _kinds += [C64[:4].reshape(2, 2)]
    if _name in ("sum", "prod"):
        _kinds += [B.reshape(2, 4)]
    for _x in _kinds:
        add(_name, _x)
        add(_name, _x, axis=0)
        add(_name, _x, axis=1, keepdims=True)
    if _name in ("std", "var"):
        _moment = getattr(np, _name)
        add(_name, F32_2D, axis=1, correction=1.0,
            oracle=lambda x, axis, correction, f=_moment: f(x, axis=axis, ddof=correction))  # fmt: skip
add("sum", I8.reshape(2, 4), dtype="int16", axis=1)
add("sum", F32_2D, dtype="float64")
add("prod", U8[:4], dtype="uint16")
add("cumulative_sum", I8, exact=True)
add("cumulative_sum", U8, exact=True)
add("cumulative_sum", F32_2D, axis=1)
add("cumulative_sum", F32_2D, axis=0, include_initial=True)
add("cumulative_sum", B, exact=True)
add("argmax", F64[:10].reshape(2, 5), exact=True)
add("argmax", F32_2D, axis=1, exact=True)
add("argmax", I8.reshape(2, 4), axis=0, keepdims=True, exact=True)
add("argmin", F64[:10].reshape(2, 5), exact=True)
add("argmin", U8.reshape(4, 2), axis=1, exact=True)
add("argmin", F32_2D, axis=0, keepdims=True, exact=True)
add("nonzero", F32_2D, exact=True)
add("nonzero", I8, exact=True)
add("nonzero", B, exact=True)
add("searchsorted", np.sort(F32), F32_2D, exact=True)
add("searchsorted", np.sort(I32), I32[::-1].copy(), side="right", exact=True)
add("sort", F64, exact=True)  # NaN last, as the standard and NumPy put it
add("sort", F32_2D, axis=0, descending=True, exact=True,
    oracle=lambda x, axis, descending: -np.sort(-x, axis=axis))  # fmt: skip
add("sort", I8, exact=True)
add("argsort", np.array([3.0, 1.0, np.nan, 1.0, -2.0, 3.0, np.nan, 0.0]), exact=True,
    oracle=lambda x: np.argsort(x, kind="stable"))  # fmt: skip
add("argsort", I32[::-1].copy(), descending=True, exact=True,
    oracle=lambda x, descending: np.argsort(-x.astype(np.int64), kind="stable"))  # fmt: skip
add("argsort", F32_2D, axis=0, exact=True,
    oracle=lambda x, axis: np.argsort(x, axis=axis, kind="stable"))  # fmt: skip
_DUPS = np.array([3.0, 1.0, np.nan, 1.0, -2.0, 3.0, np.nan, 0.0, 1.0])
_IDUPS = np.array([[3, 1, 4], [1, 5, 9], [2, 6, 5]], dtype=np.int16)
for _name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
    # sorted, as every backend gives them (NumPy 2.3's unique_values leaves the order open)
    _sorted = (lambda x: np.unique(x, equal_nan=False)) if _name == "unique_values" else None
    add(_name, _IDUPS, exact=True, oracle=_sorted)
    add(_name, _DUPS, exact=True, oracle=_sorted)  # each NaN its own value (the standard)
add("all", B.reshape(2, 4), exact=True)
add("all", F32_2D, axis=1, exact=True)
add("all", I8.reshape(2, 4), axis=0, keepdims=True, exact=True)
add("any", B.reshape(2, 4), axis=1, exact=True)
add("any", F32_2D * 0, exact=True)
add("any", U8.reshape(4, 2), axis=(0, 1), keepdims=True, exact=True)


# -- manipulation and indexing ----------------------------------------------------------------

add("broadcast_arrays", F32_2D, F32_2D[0], exact=True)
add("broadcast_arrays", I8[:1], I32.reshape(2, 4), exact=True)
add("broadcast_to", B2, (3, 5), exact=True)
add("broadcast_to", I8[:1], (2, 3), exact=True)
add("concat", (A2, F32_2D[:1, :1].repeat(5, 1)), exact=True)
add("concat", (IA2, IA2), axis=1, exact=True)
add("concat", (F32_2D, F32_2D), axis=None, exact=True,
    oracle=lambda xs, axis: np.concat([a.ravel() for a in xs]))  # fmt: skip
add("concat", (IA2, A2), exact=True, oracle=lambda xs: np.concat(xs).astype(np.float32))
add("stack", (F32, F32[::-1]), exact=True)
add("stack", (I8, I8), axis=1, exact=True)
add("expand_dims", CUBE, axis=1, exact=True)
add("expand_dims", I8, axis=-1, exact=True)
add("flip", CUBE, exact=True)
add("flip", CUBE, axis=(0, 2), exact=True)
add("fliplr", F32_2D, exact=True)
add("flipud", CUBE, exact=True)
add("moveaxis", CUBE, 0, -1, exact=True)
add("moveaxis", CUBE, (0, 1), (2, 0), exact=True)
add("permute_dims", CUBE, (2, 0, 1), exact=True)
add("swapaxes", CUBE, 0, 2, exact=True)
add("matrix_transpose", CUBE, exact=True)
add("repeat", I8, 2, exact=True)
add("repeat", F32_2D, 3, axis=1, exact=True)
add("repeat", F32_2D, np.array([1, 0, 2]), axis=0, exact=True)
add("reshape", CUBE, (4, 6), exact=True)
add("reshape", CUBE, (-1,), exact=True)
add("roll", F32, 3, exact=True)
add("roll", CUBE, (1, -1), axis=(0, 2), exact=True)
add("rot90", F32_2D, exact=True, oracle=np.rot90)
add("rot90", CUBE, k=3, axes=(1, 2), exact=True, oracle=np.rot90)
add("squeeze", CUBE[:1, :, :1], axis=(0, 2), exact=True)
add("squeeze", F32_2D[:1], axis=0, exact=True)
add("tile", I8[:3], (2, 2), exact=True)
add("tile", F32_2D, (1, 3), exact=True)
add("unstack", CUBE, exact=True)
add("unstack", CUBE, axis=2, exact=True)
add("take", F32, np.array([0, 3, 3, 11]), exact=True)
add("take", CUBE, np.array([2, 0]), axis=2, exact=True)
add("get_item", CUBE, (1, slice(None, None, -1), slice(1, 3)), exact=True,
    oracle=lambda x, q: x[q])  # fmt: skip
add("get_item", F32, F32 > 0, exact=True, oracle=lambda x, q: x[q])
add("get_item", CUBE, (Ellipsis, None, 2), exact=True, oracle=lambda x, q: x[q])


def _set_item_oracle(x: Any, query: Any, val: Any) -> Any:
    y = x.copy()
    y[query] = val
    return y


add("set_item", CUBE, (0, slice(1, 3)), 5.0, exact=True, oracle=_set_item_oracle)
add("set_item", I32, I32 > 0, 0, exact=True, oracle=_set_item_oracle)


def _inplace_update_oracle(x: Any, val: Any, **_: Any) -> Any:
    return np.asarray(val).astype(x.dtype)


add("inplace_update", F32_2D, F32_2D * 2, exact=True, oracle=_inplace_update_oracle)
add("inplace_update", I32, I32 - 1, exact=True, oracle=_inplace_update_oracle)

# -- data types and array helpers --------------------------------------------------------------

add("astype", F32 * 10, "int32", exact=True, oracle=lambda x, d: x.astype(d))
add("astype", I32, "float64", exact=True, oracle=lambda x, d: x.astype(d))
add("astype", I8, "uint8", exact=True, oracle=lambda x, d: x.astype(d))  # wraps, as NumPy
add("astype", F32, "bool", exact=True, oracle=lambda x, d: x.astype(d))
add("astype", C64, "complex128", exact=True, oracle=lambda x, d: x.astype(d))
add("astype", B, "float32", exact=True, oracle=lambda x, d: x.astype(d))
add("to_numpy", F64, exact=True, oracle=np.copy)
add("to_numpy", I8, exact=True, oracle=np.copy)
add("to_native", F32, exact=True, oracle=np.copy)
add("is_array", F32, oracle=lambda x: True)
add("is_array", [1, 2], oracle=lambda x: False)
add("is_ivy_array", F32, oracle=lambda x: True)
add("is_native_array", F32, oracle=lambda x: False)
add("result_type", I8, np.uint8(0).dtype.name, oracle=lambda a, b: "int16")
add("result_type", F32, 1j, oracle=lambda a, b: "complex64")
add("can_cast", "int8", "float32", oracle=lambda a, b: True)
add("can_cast", I64, "int32", oracle=lambda a, b: False)
add("finfo", "float32", check=lambda got, args: _finfo_check(got, args))
add("iinfo", "uint16", check=lambda got, args: _iinfo_check(got, args))
add("isdtype", "int8", "signed integer", oracle=lambda d, k: True)
add("isdtype", "uint8", ("real floating", "bool"), oracle=lambda d, k: False)


def _finfo_check(got: Any, args: tuple[Any, ...]) -> None:
    ref = np.finfo(args[0])
    assert (got.bits, got.eps, got.max, got.min) == (ref.bits, ref.eps, ref.max, ref.min)
    assert got.smallest_normal == ref.smallest_normal


def _iinfo_check(got: Any, args: tuple[Any, ...]) -> None:
    ref = np.iinfo(args[0])
    assert (got.bits, got.max, got.min) == (ref.bits, ref.max, ref.min)


def _cross_entropy_oracle(true: Any, pred: Any, **kwargs: Any) -> Any:
    p = np.clip(pred, 1e-7, 1 - 1e-7)
    return np.mean(-np.sum(np.log(p) * true, axis=-1)).astype(np.float32)


add(
    "cross_entropy",
    np.eye(3, dtype=np.float32),
    np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], np.float32),
    oracle=_cross_entropy_oracle,
)

# -- linear algebra (main namespace and ivy.linalg) --------------------------------------------

for _m in (M, M.astype(np.float32)):
    add("matmul", _m, MG.astype(_m.dtype))
    add("linalg.matmul", _m, _m[:, :2])
    add("cholesky", _m, oracle=np.linalg.cholesky)
    add("cholesky", _m, upper=True, oracle=lambda x, upper: np.linalg.cholesky(x).T)
    add("linalg.cholesky", _m, oracle=np.linalg.cholesky)
    add("linalg.det", MG.astype(_m.dtype))
    add("linalg.inv", MG.astype(_m.dtype))
    add("linalg.eigvalsh", _m)
    add("linalg.slogdet", -MG.astype(_m.dtype))
    add("linalg.solve", MG.astype(_m.dtype), _m)
    add("linalg.svdvals", MG.astype(_m.dtype))
    add("linalg.pinv", MG.astype(_m.dtype)[:, :2])
    add("linalg.matrix_rank", np.outer(_m[0], _m[1]), exact=True)
    add("linalg.matrix_power", MG.astype(_m.dtype), 3)
    add("linalg.matrix_power", MG.astype(_m.dtype), -2)
    add("linalg.matrix_norm", MG.astype(_m.dtype))
    add("linalg.matrix_norm", MG.astype(_m.dtype), ord=1, keepdims=True)
    add("linalg.matrix_norm", MG.astype(_m.dtype), ord="nuc")
    add("linalg.vector_norm", MG.astype(_m.dtype))
    add("linalg.vector_norm", MG.astype(_m.dtype), axis=1, ord=1)
    add("linalg.vector_norm", MG.astype(_m.dtype), axis=0, ord=np.inf, keepdims=True)
    add("linalg.trace", CUBE.astype(_m.dtype), offset=1)
    add("linalg.diagonal", CUBE.astype(_m.dtype), offset=-1, exact=True)
add("linalg.trace", I8.reshape(2, 2, 2), exact=True)  # accumulates in int64
add("linalg.det", C128[:4].reshape(2, 2))
add("matrix_transpose", I8.reshape(2, 2, 2), exact=True)
add("linalg.matrix_transpose", CUBE, exact=True)
add("tensordot", CUBE, CUBE[0].T.copy(), axes=([1, 2], [1, 0]))
add("tensordot", F32_2D, F32_2D.T.copy(), axes=1)
add("linalg.tensordot", I32.reshape(2, 4), I32.reshape(4, 2), axes=1, exact=True)
add("vecdot", F32_2D, F32_2D[::-1].copy())
add("vecdot", C64[:4].reshape(2, 2), C64[1:].reshape(2, 2), axis=0)
add("linalg.vecdot", I32.reshape(2, 4), I32.reshape(2, 4), exact=True)
add("linalg.outer", F32[:4], F32[4:7])
add("linalg.outer", I8[:3], I8[3:6], exact=True)
add("linalg.cross", MG, M)
add("linalg.cross", I32[:6].reshape(2, 3), IB2[:3], exact=True)


def _eigh_check(got: Any, args: tuple[Any, ...]) -> None:
    values, vectors = (ivy.to_numpy(g) for g in got)
    np.testing.assert_allclose(values, np.linalg.eigvalsh(args[0]), rtol=1e-5)
    assert vectors.dtype == args[0].dtype
    np.testing.assert_allclose(vectors @ np.diag(values) @ vectors.T, args[0], atol=1e-5)


def _qr_check(got: Any, args: tuple[Any, ...]) -> None:
    q, r = (ivy.to_numpy(g) for g in got)
    assert q.dtype == r.dtype == args[0].dtype
    np.testing.assert_allclose(q @ r, args[0], atol=1e-5)
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(args[0]).R), atol=1e-5)
    assert np.allclose(np.tril(r, -1), 0)


def _svd_check(got: Any, args: tuple[Any, ...]) -> None:
    u, s, vh = (ivy.to_numpy(g) for g in got)
    np.testing.assert_allclose(s, np.linalg.svdvals(args[0]), rtol=1e-5)
    k = s.shape[-1]
    np.testing.assert_allclose((u[:, :k] * s) @ vh[:k], args[0], atol=1e-5)


add("linalg.eigh", M, check=_eigh_check)
add("linalg.eigh", M.astype(np.float32), check=_eigh_check)
add("linalg.qr", MG[:, :2].copy(), check=_qr_check)
add("linalg.qr", MG.astype(np.float32), check=_qr_check)
add("linalg.svd", MG[:2].copy(), full_matrices=False, check=_svd_check)
add("linalg.svd", MG.astype(np.float32), check=_svd_check)

# -- fft ---------------------------------------------------------------------------------------

_SIG = np.array([1.0, -2.0, 0.5, 3.0, 0.0, -1.5, 2.0, 4.0])
for _sig in (_SIG, _SIG.astype(np.float32)):
    _c = (_sig + 1j * _sig[::-1]).astype(np.complex64 if _sig.dtype == np.float32 else complex)
    add("fft.fft", _c)
    add("fft.fft", _c, n=5, norm="ortho")
    add("fft.ifft", _c, norm="forward")
    add("fft.fftn", _c.reshape(2, 4))
    add("fft.ifftn", _c.reshape(2, 4), axes=(0,))
    add("fft.rfft", _sig)
    add("fft.rfft", _sig.reshape(2, 4), axis=0)
    add("fft.irfft", _c[:5])
    add("fft.irfft", _c[:5], n=9)
    add("fft.rfftn", _sig.reshape(2, 4))
    add("fft.irfftn", _c.reshape(2, 4), s=(2, 6))
    add("fft.hfft", _c[:5])
    add("fft.ihfft", _sig)
    add("fft.fftshift", _sig.reshape(2, 4), exact=True)
    add("fft.ifftshift", _sig, exact=True)
    add("fft.fftshift", _sig.reshape(2, 4), axes=(1,), exact=True)
add("fft.fftfreq", 7, oracle=lambda n: np.fft.fftfreq(n).astype(np.float32))
add("fft.fftfreq", 8, d=0.5, dtype="float64", oracle=lambda n, d, dtype: np.fft.fftfreq(n, d))
add("fft.rfftfreq", 7, oracle=lambda n: np.fft.rfftfreq(n).astype(np.float32))
add("fft.rfftfreq", 6, d=2.0, dtype="float64", oracle=lambda n, d, dtype: np.fft.rfftfreq(n, d))


# -- 2024.12 and 2025.12 ------------------------------------------------------------------------

add("reciprocal", F32)
add("reciprocal", F64)
add("reciprocal", C64)
add("reciprocal", I32[I32 != 0], oracle=lambda x: np.divide(1, x))  # integers: float64
add("nextafter", F32, F32[::-1].copy(), exact=True)
add("nextafter", F64, 0.0, exact=True)
add("nextafter", np.array([0.0, -0.0, 1.0]), np.array([1.0, -1.0, 2.0]), exact=True)
add("nextafter", 1.0, F64, exact=True)
_IDX = np.array([[2, 0, -1], [1, 1, 0], [0, -2, 2]])
add("take_along_axis", F32_2D[:, :3], _IDX, axis=1, exact=True,
    oracle=lambda x, i, axis: np.take_along_axis(x, i, axis))  # fmt: skip
add("take_along_axis", CUBE[0, :, :3], _IDX[:2], axis=0, exact=True,
    oracle=lambda x, i, axis: np.take_along_axis(x, i, axis))  # fmt: skip
add("take_along_axis", I8, np.array([3, -1, 0]), exact=True,
    oracle=lambda x, i: np.take_along_axis(x, i, -1))  # fmt: skip
add("take_along_axis", U8.astype(np.uint16), np.array([7, -1, 0]), exact=True,
    oracle=lambda x, i: np.take_along_axis(x, i, -1))  # fmt: skip
add("take_along_axis", U8.astype(np.uint64), np.array([1, 2]), exact=True,
    oracle=lambda x, i: np.take_along_axis(x, i, -1))  # fmt: skip
for _x in (F32_2D, B.reshape(2, 4), C64[:4].reshape(2, 2), U8.reshape(4, 2)):
    add("count_nonzero", _x, oracle=lambda x: np.asarray(np.count_nonzero(x), np.int64))
    add("count_nonzero", _x, axis=1, keepdims=True,
        oracle=lambda x, **k: np.count_nonzero(x, **k).astype(np.int64))  # fmt: skip
    add("count_nonzero", _x, axis=(0,),
        oracle=lambda x, **k: np.count_nonzero(x, **k).astype(np.int64))  # fmt: skip
add("cumulative_prod", I8[2:6], exact=True)
add("cumulative_prod", U8[:4], exact=True)
add("cumulative_prod", F32_2D, axis=1)
add("cumulative_prod", F32_2D, axis=0, include_initial=True)
add("cumulative_prod", I32.reshape(2, 4), axis=1, dtype="float64")
add("diff", F32, exact=True)
add("diff", F32_2D, axis=0, n=2, exact=True)
add("diff", I8, n=3, exact=True)
add("diff", U8, exact=True)  # wraps, as NumPy
add("diff", U8.astype(np.uint16), prepend=U8[:1].astype(np.uint16), exact=True)
add("diff", U8.astype(np.uint32)[::-1].copy(), n=2, exact=True)
add("diff", U8.astype(np.uint64), append=U8[:2].astype(np.uint64), exact=True)
add("diff", F32_2D, prepend=F32_2D[:, :1], append=F32_2D[:, -1:], exact=True)
add("diff", B, exact=True)
add("isin", I32, IB2, exact=True)
add("isin", F64, np.array([np.nan, 0.5, -np.inf]), exact=True)  # NaN is in nothing
add("isin", F32_2D, F32_2D[1], invert=True, exact=True)
add("isin", I8, 5, exact=True)
add("isin", U8.astype(np.uint16), 254, exact=True)
add("isin", U8.astype(np.uint64), U8[2:5].astype(np.uint64), invert=True, exact=True)
add("isin", 2, I32, exact=True, oracle=lambda a, b: np.asarray(np.isin(a, b)))
add("broadcast_shapes", (2, 1, 4), (3, 1), (1,), oracle=lambda *s: np.broadcast_shapes(*s))
add("broadcast_shapes", oracle=lambda: ())
add("broadcast_shapes", (0, 1), (5,), oracle=lambda *s: np.broadcast_shapes(*s))


def _sorted_complex(values: Any) -> Any:
    """Eigenvalues in an order that does not depend on the last bits (conjugate pairs)."""
    return values[np.lexsort((np.round(values.imag, 4), np.round(values.real, 4)))]


def _eig_check(got: Any, args: tuple[Any, ...]) -> None:
    values, vectors = (ivy.to_numpy(g) for g in got)
    complex_dtype = np.result_type(args[0].dtype, np.complex64)
    assert values.dtype == vectors.dtype == complex_dtype
    tol = 1e-4 if complex_dtype == np.complex64 else 1e-10
    np.testing.assert_allclose(args[0] @ vectors, vectors * values, atol=tol)
    expected = _sorted_complex(np.linalg.eigvals(args[0]))
    np.testing.assert_allclose(_sorted_complex(values), expected, atol=tol)


def _eigvals_check(got: Any, args: tuple[Any, ...]) -> None:
    values = ivy.to_numpy(got)
    complex_dtype = np.result_type(args[0].dtype, np.complex64)
    assert values.dtype == complex_dtype
    tol = 1e-4 if complex_dtype == np.complex64 else 1e-10
    expected = _sorted_complex(np.linalg.eigvals(args[0]).astype(complex_dtype))
    np.testing.assert_allclose(_sorted_complex(values), expected, atol=tol)


_ROTATION = np.array([[0.0, -2.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 3.0]])  # complex pair
for _m in (MG, _ROTATION, _ROTATION.astype(np.float32), MG.astype(np.complex128)):
    add("linalg.eig", _m, check=_eig_check)
    add("linalg.eigvals", _m, check=_eigvals_check)


# -- the test ----------------------------------------------------------------------------------

ORACLE_MODULES = {"linalg": np.linalg, "fft": np.fft}
NOT_FUNCTIONS = {
    "Array", "Container", "Dtype", "NativeArray", "InplaceUpdateException",
    "IvyBackendException", "IvyBufferError", "IvyException", "IvyNotImplementedException",
    "IvyTypeError",
    "IvyValueError", "set_backend", "unset_backend", "using_backend", "current_backend",
    "current_backend_str", "__array_namespace_info__", "set_array_api_version",
    "default_float_dtype", "set_default_float_dtype",
}  # fmt: skip
"""Names of the namespace that are not array functions (classes, backend switching, the
default float dtype -- ``test_default_float_dtype.py`` -- and the inspection namespace --
the conformance files in ``make test`` check that one)."""


def _runtime_function(name: str) -> Callable[..., Any]:
    module, _, attr = name.rpartition(".")
    return getattr(getattr(ivy, module) if module else ivy, attr)


def _numpy_function(name: str) -> Callable[..., Any]:
    module, _, attr = name.rpartition(".")
    return getattr(ORACLE_MODULES[module] if module else np, attr)


def namespace_functions() -> set[str]:
    names = {n for n in ivy.__all__ if callable(getattr(ivy, n)) and n not in NOT_FUNCTIONS}
    for module in ("linalg", "fft"):
        mod = getattr(ivy, module)
        names |= {f"{module}.{n}" for n in mod.__all__ if not n.endswith("Result")}
    return names


def _to_runtime(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return ivy.asarray(value.copy())
    if isinstance(value, tuple) and any(isinstance(v, np.ndarray) for v in value):
        return tuple(_to_runtime(v) for v in value)
    return value


def _compare(got: Any, expected: Any, exact: bool, where: str) -> None:
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)), where
        assert len(got) == len(expected), where
        for g, e in zip(got, expected, strict=True):
            _compare(g, e, exact, where)
        return
    if isinstance(expected, (bool, str, int)) and not isinstance(expected, np.ndarray):
        assert got == expected, (where, got, expected)
        return
    expected = np.asarray(expected)
    values = got if isinstance(got, np.ndarray) else ivy.to_numpy(got)
    assert str(values.dtype) == str(expected.dtype), (where, values.dtype, expected.dtype)
    assert values.shape == expected.shape, (where, values.shape, expected.shape)
    if exact or expected.dtype.kind in "biu":
        np.testing.assert_array_equal(values, expected, err_msg=where)
    else:
        tol = 2e-5 if expected.dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(values, expected, rtol=tol, atol=tol, err_msg=where)


def test_every_function_has_cases() -> None:
    missing = sorted(namespace_functions() - set(CASES) - {"from_dlpack"})
    assert missing == [], f"functions of the namespace with no case here: {missing}"
    unknown = sorted(set(CASES) - namespace_functions())
    assert unknown == [], f"cases of functions the namespace does not have: {unknown}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_function_matches_oracle(backend: str, name: str) -> None:
    fn = _runtime_function(name)
    for number, case in enumerate(CASES[name]):
        where = f"{name} case {number}: args {case.args!r} kwargs {case.kwargs!r}"
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            kwargs = {k: _to_runtime(v) for k, v in case.kwargs.items()}
            got = fn(*(_to_runtime(a) for a in case.args), **kwargs)
        if case.check is not None:
            case.check(got, case.args)
            continue
        oracle = case.oracle or _numpy_function(name)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            expected = oracle(*case.args, **case.kwargs)
        if name == "inplace_update":
            assert got is not None
        _compare(got, expected, case.exact, where)


@pytest.mark.parametrize("dtype", ["float32", "int16", "uint8", "bool", "complex64"])
def test_from_dlpack(backend: str, dtype: str) -> None:
    source = ivy.asarray(np.arange(1, 5).astype(dtype) if dtype != "bool" else B[:4].copy())
    _from_dlpack_check(ivy.from_dlpack(source), (None, source))


SCALAR_DTYPES = (
    "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float32", "float64", "complex64", "complex128",
)  # fmt: skip
SCALARS = {"b": [True], "i": [True, 3], "u": [True, 3], "f": [True, 3, -1.5], "c": [3, 0.5, 2j]}


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "equal", "less"])
def test_python_scalars_of_every_kind(backend: str, name: str) -> None:
    """A Python scalar on either side of an array of every dtype: the array's dtype when the
    scalar's kind is not higher (the standard), the default float32 / complex64 when it is
    (integer array and ``float``, real array and ``complex``: the standard leaves those open,
    docs/runtime.md fixes them), and NumPy's values; a Python ``bool`` beside a numeric array
    is the number (outside the standard, which pairs bools with bool arrays, but NumPy and
    every backend take it). Arithmetic on bool arrays and order on complex ones are outside
    the standard and left out. 0-d arrays are not weak."""
    fn, oracle = getattr(ivy, name), weak(getattr(np, name))
    for dtype in SCALAR_DTYPES:
        kind = np.dtype(dtype).kind
        values = np.array([0, 1, 1, 0, 1], dtype=dtype) if kind == "b" else (
            np.array([0, 1, 2, 5, 7]).astype(dtype))  # fmt: skip
        scalars = [*SCALARS[kind], *([1.5, 1j] if kind in "biu" else [])]
        if kind == "f":
            scalars.append(1j)
        if (kind == "b" and name != "equal") or (kind == "c" and name == "less"):
            continue
        for scalar in scalars:
            if name == "less" and type(scalar) is complex:
                continue  # (no order on complex numbers)
            for args in ((values, scalar), (scalar, values)):
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    got = fn(*(_to_runtime(a) for a in args))
                    expected = oracle(*args)
                _compare(got, expected, False, f"{name}{args!r}")
    # 0-d arrays take part in promotion as arrays (PyTorch reads them as weak scalars)
    zero_d = ivy.asarray(np.asarray(3, dtype=np.int64))
    got = fn(ivy.asarray(np.array([1, 2], dtype=np.int8)), zero_d)
    assert str(got.dtype) == ("bool" if name in ("equal", "less") else "int64")


def test_array_api_versions(backend: str) -> None:
    """The namespace implements 2025.12; asking for 2023.12 or 2024.12 gives their lists
    where 2025.12 returns tuples, and ``__array_api_version__`` reports the version asked."""
    x = ivy.asarray(np.arange(3.0))
    assert ivy.__array_api_version__ == "2025.12"
    assert x.__array_namespace__(api_version="2024.12") is ivy
    assert type(ivy.meshgrid(x, x)) is tuple
    assert type(ivy.broadcast_arrays(x, x)) is tuple
    assert ivy.__array_namespace_info__().devices() == ("cpu",)
    try:
        for version in ("2023.12", "2024.12"):
            ivy.set_array_api_version(version)
            assert ivy.__array_api_version__ == version
            assert type(ivy.meshgrid(x, x)) is list
            assert type(ivy.broadcast_arrays(x, x)) is list
            assert ivy.__array_namespace_info__().devices() == ["cpu"]
            assert ivy.reciprocal(x[1:]).shape == (2,)  # every name, whatever the version
    finally:
        ivy.set_array_api_version("2025.12")
    with pytest.raises(ivy.IvyValueError):
        ivy.set_array_api_version("2022.12")
    with pytest.raises(ivy.IvyValueError):
        x.__array_namespace__(api_version="2026.12")
