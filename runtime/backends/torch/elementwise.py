"""PyTorch elementwise functions.

Binary functions cast their operands to the standard's result dtype first (``_promote``):
PyTorch promotes a 0-d tensor like a Python scalar and has no promotion for uint16/32/64.
Those three dtypes also lack most kernels (add, comparisons, shifts ...): such a function
computes on int64 (``_unsigned``: the same bits for uint64, exact for uint16/uint32, the order
kept for comparisons) and writes ``out`` through ``inplace_update``, as every function whose
result is not the native call's own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import torch

from ivycheck.runtime.backends._common.complex_special import floor_of_quotient, pow_of_zero, repair
from ivycheck.runtime.backends._common.integer_ops import refuse_negative_power
from ivycheck.runtime.backends._common.out import written
from ivycheck.runtime.backends._common.promote import bounds, promote, true_division
from ivycheck.runtime.backends.torch import _unsigned, primitives
from ivycheck.runtime.backends.torch._unsigned import WIDE_UNSIGNED

Arr = Any


def _t(x: Any) -> torch.Tensor:
    return x if isinstance(x, torch.Tensor) else torch.as_tensor(x)


def _pair(x1: Any, x2: Any) -> list[torch.Tensor] | tuple[torch.Tensor, torch.Tensor]:
    """Both operands in the standard's result dtype; two tensors of one dtype (the common
    case) as they are, without ``promote``'s general lookup."""
    if type(x1) is torch.Tensor and type(x2) is torch.Tensor and x1.dtype == x2.dtype:
        return x1, x2
    return promote(primitives, x1, x2)


def _modular(fn: Callable[..., Any], *xs: torch.Tensor) -> Any:
    """``fn`` on wide unsigned operands as int64: right modulo 2**64 (the same bits)."""
    return _unsigned.restore(fn(*(_unsigned.signed(x) for x in xs)), xs[0].dtype)


def _ordered(fn: Callable[..., Any], *xs: torch.Tensor) -> Any:
    """``fn`` on wide unsigned operands as int64 in the same order (comparisons)."""
    return fn(*(_unsigned.ordered(x) for x in xs))


def _extremum(fn: Callable[..., Any], *xs: torch.Tensor) -> Any:
    """``fn`` (maximum, minimum) on wide unsigned operands, in their order and dtype."""
    return _unsigned.restore(_ordered(fn, *xs), xs[0].dtype, from_ordered=True)


def _written(ret: torch.Tensor, out: Arr | None) -> Arr:
    """``ret``, written into ``out`` when given (the paths that cannot forward ``out``)."""
    if out is not None:
        return written(primitives, ret, out)
    return ret


def _binary(
    fn: Callable[..., Any], wide: Callable[..., Any], x1: Any, x2: Any, *, out: Arr | None
) -> Arr:
    """``fn`` on the promoted operands, forwarding ``out``; wide unsigned ones through
    ``wide`` (``_modular``, ``_ordered`` or ``_extremum``) and ``out`` by ``inplace_update``.

    A function whose body is only this call says so with ``one_dtype_native = fn``: on two
    tensors of one dtype that is not a wide unsigned one it is ``fn(x1, x2, out=out)``, which
    the dispatcher's ``out`` path then calls directly (``primitives.check_native_out``)."""
    if type(x1) is not torch.Tensor or type(x2) is not torch.Tensor or x1.dtype != x2.dtype:
        x1, x2 = _pair(x1, x2)  # (two tensors of one dtype: ``_pair`` returns them as they are)
    if x1.dtype in WIDE_UNSIGNED:
        return _written(wide(fn, x1, x2), out)
    if out is None:
        return fn(x1, x2)
    return fn(x1, x2, out=out)


def _tabled(name: str, fn: Callable[..., Any], x: Any, *, out: Arr | None) -> Arr:
    """``fn(x)`` forwarding ``out``; complex infinities and NaNs as the standard's table says
    (PyTorch's complex kernels give other values there), ``out`` by ``inplace_update``."""
    x = _t(x)
    if x.is_complex():
        return _written(repair(sys.modules[__name__], torch.complex, name, x, fn), out)
    return fn(x, out=out)


def _unary_modular(fn: Callable[..., Any], x: Any, *, out: Arr | None) -> Arr:
    """``fn`` forwarding ``out``; wide unsigned ``x`` on its int64 bits (``_modular``)."""
    x = _t(x)
    if x.dtype in WIDE_UNSIGNED:
        return _written(_modular(fn, x), out)
    return fn(x, out=out)


def acos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("acos", torch.acos, x, out=out)


acos.support_native_out = True  # type: ignore[attr-defined]


def acosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.acosh(_t(x), out=out)


acosh.support_native_out = True  # type: ignore[attr-defined]


def asin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.asin(_t(x), out=out)


asin.support_native_out = True  # type: ignore[attr-defined]


def asinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.asinh(_t(x), out=out)


asinh.support_native_out = True  # type: ignore[attr-defined]


def atan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.atan(_t(x), out=out)


atan.support_native_out = True  # type: ignore[attr-defined]


def atanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.atanh(_t(x), out=out)


atanh.support_native_out = True  # type: ignore[attr-defined]


def cos(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.cos(_t(x), out=out)


cos.support_native_out = True  # type: ignore[attr-defined]


def cosh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.cosh(_t(x), out=out)


cosh.support_native_out = True  # type: ignore[attr-defined]


def exp(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.exp(_t(x), out=out)


exp.support_native_out = True  # type: ignore[attr-defined]


def expm1(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("expm1", torch.expm1, x, out=out)


expm1.support_native_out = True  # type: ignore[attr-defined]


def log(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.log(_t(x), out=out)


log.support_native_out = True  # type: ignore[attr-defined]


def log1p(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("log1p", torch.log1p, x, out=out)


log1p.support_native_out = True  # type: ignore[attr-defined]


def log2(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.log2(_t(x), out=out)


log2.support_native_out = True  # type: ignore[attr-defined]


def log10(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.log10(_t(x), out=out)


log10.support_native_out = True  # type: ignore[attr-defined]


def sin(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.sin(_t(x), out=out)


sin.support_native_out = True  # type: ignore[attr-defined]


def sinh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.sinh(_t(x), out=out)


sinh.support_native_out = True  # type: ignore[attr-defined]


def sqrt(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.sqrt(_t(x), out=out)


sqrt.support_native_out = True  # type: ignore[attr-defined]


def tan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.tan(_t(x), out=out)


tan.support_native_out = True  # type: ignore[attr-defined]


def tanh(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _tabled("tanh", torch.tanh, x, out=out)


tanh.support_native_out = True  # type: ignore[attr-defined]


def ceil(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.ceil(_t(x), out=out)


ceil.support_native_out = True  # type: ignore[attr-defined]


def floor(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.floor(_t(x), out=out)


floor.support_native_out = True  # type: ignore[attr-defined]


def trunc(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.trunc(_t(x), out=out)


trunc.support_native_out = True  # type: ignore[attr-defined]


def signbit(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.signbit(_t(x), out=out)


signbit.support_native_out = True  # type: ignore[attr-defined]


def conj(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.conj_physical(_t(x), out=out)


conj.support_native_out = True  # type: ignore[attr-defined]


def isfinite(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.isfinite(_t(x))


def isinf(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.isinf(_t(x))


def isnan(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.isnan(_t(x))


def negative(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unary_modular(torch.neg, x, out=out)


negative.support_native_out = True  # type: ignore[attr-defined]


def square(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unary_modular(torch.square, x, out=out)


square.support_native_out = True  # type: ignore[attr-defined]


def bitwise_invert(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return _unary_modular(torch.bitwise_not, x, out=out)


bitwise_invert.support_native_out = True  # type: ignore[attr-defined]


def divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.divide(*_pair(*true_division(primitives, x1, x2)), out=out)


divide.support_native_out = True  # type: ignore[attr-defined]


def atan2(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.atan2(*_pair(x1, x2), out=out)


atan2.support_native_out = True  # type: ignore[attr-defined]


def copysign(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.copysign(*_pair(x1, x2), out=out)


copysign.support_native_out = True  # type: ignore[attr-defined]


def hypot(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.hypot(*_pair(x1, x2), out=out)


hypot.support_native_out = True  # type: ignore[attr-defined]


def logaddexp(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.logaddexp(*_pair(x1, x2), out=out)


logaddexp.support_native_out = True  # type: ignore[attr-defined]


def equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.eq(*_pair(x1, x2), out=out)


equal.support_native_out = True  # type: ignore[attr-defined]


def not_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.ne(*_pair(x1, x2), out=out)


not_equal.support_native_out = True  # type: ignore[attr-defined]


def bitwise_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.bitwise_and(*_pair(x1, x2), out=out)


bitwise_and.support_native_out = True  # type: ignore[attr-defined]


def bitwise_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.bitwise_or(*_pair(x1, x2), out=out)


bitwise_or.support_native_out = True  # type: ignore[attr-defined]


def bitwise_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.bitwise_xor(*_pair(x1, x2), out=out)


bitwise_xor.support_native_out = True  # type: ignore[attr-defined]


def add(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.add, _modular, x1, x2, out=out)


add.support_native_out = True  # type: ignore[attr-defined]
add.one_dtype_native = torch.add  # type: ignore[attr-defined]


def subtract(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.subtract, _modular, x1, x2, out=out)


subtract.support_native_out = True  # type: ignore[attr-defined]
subtract.one_dtype_native = torch.subtract  # type: ignore[attr-defined]


def multiply(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.multiply, _modular, x1, x2, out=out)


multiply.support_native_out = True  # type: ignore[attr-defined]
multiply.one_dtype_native = torch.multiply  # type: ignore[attr-defined]


def pow(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _pair(x1, x2)
    if x1.is_complex():  # x ** 0 is 1, as for real x (exp(0 * log(0)) would be NaN)
        ret = torch.where(x2 == 0, torch.ones_like(x1), torch.pow(x1, x2))
        return _written(pow_of_zero(sys.modules[__name__], torch.complex, x1, x2, ret), out)
    if not x1.is_floating_point() and x1.dtype != torch.bool and x2.is_signed():
        refuse_negative_power(bool((x2 < 0).any()))  # (``integer_ops``)
    return _binary(torch.pow, _modular, x1, x2, out=out)


pow.support_native_out = True  # type: ignore[attr-defined]


def bitwise_left_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.bitwise_left_shift, _modular, x1, x2, out=out)


bitwise_left_shift.support_native_out = True  # type: ignore[attr-defined]
bitwise_left_shift.one_dtype_native = torch.bitwise_left_shift  # type: ignore[attr-defined]


def less(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.lt, _ordered, x1, x2, out=out)


less.support_native_out = True  # type: ignore[attr-defined]
less.one_dtype_native = torch.lt  # type: ignore[attr-defined]


def less_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.le, _ordered, x1, x2, out=out)


less_equal.support_native_out = True  # type: ignore[attr-defined]
less_equal.one_dtype_native = torch.le  # type: ignore[attr-defined]


def greater(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.gt, _ordered, x1, x2, out=out)


greater.support_native_out = True  # type: ignore[attr-defined]
greater.one_dtype_native = torch.gt  # type: ignore[attr-defined]


def greater_equal(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.ge, _ordered, x1, x2, out=out)


greater_equal.support_native_out = True  # type: ignore[attr-defined]
greater_equal.one_dtype_native = torch.ge  # type: ignore[attr-defined]


def maximum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.maximum, _extremum, x1, x2, out=out)


maximum.support_native_out = True  # type: ignore[attr-defined]
maximum.one_dtype_native = torch.maximum  # type: ignore[attr-defined]


def minimum(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return _binary(torch.minimum, _extremum, x1, x2, out=out)


minimum.support_native_out = True  # type: ignore[attr-defined]
minimum.one_dtype_native = torch.minimum  # type: ignore[attr-defined]


def logical_and(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _t(x1), _t(x2)
    if x1.dtype in WIDE_UNSIGNED or x2.dtype in WIDE_UNSIGNED:
        x1, x2 = x1 != 0, x2 != 0
    return torch.logical_and(x1, x2, out=out)


logical_and.support_native_out = True  # type: ignore[attr-defined]


def logical_or(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _t(x1), _t(x2)
    if x1.dtype in WIDE_UNSIGNED or x2.dtype in WIDE_UNSIGNED:
        x1, x2 = x1 != 0, x2 != 0
    return torch.logical_or(x1, x2, out=out)


logical_or.support_native_out = True  # type: ignore[attr-defined]


def logical_xor(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    x1, x2 = _t(x1), _t(x2)
    if x1.dtype in WIDE_UNSIGNED or x2.dtype in WIDE_UNSIGNED:
        x1, x2 = x1 != 0, x2 != 0
    return torch.logical_xor(x1, x2, out=out)


logical_xor.support_native_out = True  # type: ignore[attr-defined]


def abs(x: Arr, /, *, out: Arr | None = None) -> Arr:
    x = _t(x)
    if x.dtype in WIDE_UNSIGNED:
        return _written(x.clone(), out)
    return torch.abs(x, out=out)


abs.support_native_out = True  # type: ignore[attr-defined]


def positive(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """A copy: ``torch.positive`` returns its argument itself."""
    return _t(x).clone()


def logical_not(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.eq(_t(x), 0, out=out)


logical_not.support_native_out = True  # type: ignore[attr-defined]


def sign(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """``torch.sgn`` (``x / |x|`` for complex); NaN stays NaN (``torch.sign(nan)`` is 0)."""
    x = _t(x)
    if x.dtype in WIDE_UNSIGNED:
        return _written((x != 0).to(x.dtype), out)
    if x.dtype.is_floating_point:
        return _written(torch.where(torch.isnan(x), x, torch.sign(x)), out)
    return torch.sgn(x, out=out)


sign.support_native_out = True  # type: ignore[attr-defined]


def real(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """A copy: ``torch.real`` is a view of a complex tensor and a real tensor itself."""
    return torch.real(_t(x)).clone()


def imag(x: Arr, /, *, out: Arr | None = None) -> Arr:
    """A copy (``torch.imag`` is a view); zeros for a real tensor (where torch raises)."""
    x = _t(x)
    return torch.imag(x).clone() if x.is_complex() else torch.zeros_like(x)


def round(x: Arr, /, *, decimals: int = 0, out: Arr | None = None) -> Arr:
    """Integers unchanged (torch has no integer kernel with ``decimals``); complex: each part."""
    x = _t(x)
    if x.is_complex():
        parts = (torch.round(p, decimals=decimals) for p in (x.real, x.imag))
        return _written(torch.complex(*parts), out)
    if not x.dtype.is_floating_point:
        return _written(x.clone(), out)
    return torch.round(x, decimals=decimals, out=out)


round.support_native_out = True  # type: ignore[attr-defined]


def _divmod_unsigned(x1: torch.Tensor, x2: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Floor quotient and remainder of wide unsigned operands, exact over the whole range.

    uint16/uint32 fit int64. A uint64 value is its int64 bits: the quotient of the halved
    dividend (a logical shift, so non-negative) is doubled, then one step corrects it; a
    divisor of 2**63 or more (negative as int64) goes at most once.
    """
    dtype = x1.dtype
    if dtype != torch.uint64:
        a, b = x1.to(torch.int64), x2.to(torch.int64)
        return torch.floor_divide(a, b).to(dtype), torch.remainder(a, b).to(dtype)
    a, b = x1.view(torch.int64), x2.view(torch.int64)
    big = b < 0
    half = torch.bitwise_right_shift(a, 1) & (2**63 - 1)
    q = torch.floor_divide(half, torch.where(big, 1, b)) << 1
    r = a - q * b
    step = _at_least(r, b)
    q, r = q + step, torch.where(step, r - b, r)
    q = torch.where(big, _at_least(a, b).to(torch.int64), q)
    r = torch.where(big, torch.where(q == 1, a - b, a), r)
    return q.view(dtype), r.view(dtype)


def _at_least(a: torch.Tensor, b: torch.Tensor) -> Any:
    """``a >= b`` for the int64 bits of uint64 values, compared as unsigned (the bits of
    2**63 and more are negative as int64)."""
    return _unsigned.ordered(a.view(torch.uint64)) >= _unsigned.ordered(b.view(torch.uint64))


def floor_divide(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Infinite operands as the standard says (``torch.floor_divide(inf, 2)`` is NaN)."""
    x1, x2 = _pair(x1, x2)
    if x1.dtype in WIDE_UNSIGNED:
        return _written(_divmod_unsigned(x1, x2)[0], out)
    if x1.dtype.is_floating_point:
        ret = floor_of_quotient(sys.modules[__name__], x1, x2, torch.floor_divide(x1, x2))
        return _written(ret, out)
    zero = x2 == 0
    if bool(zero.any()):  # 0, as NumPy (``integer_ops``); torch raised ZeroDivisionError
        safe = torch.where(zero, torch.ones_like(x2), x2)
        return _written(torch.where(zero, 0, torch.floor_divide(x1, safe)), out)
    return torch.floor_divide(x1, x2, out=out)


floor_divide.support_native_out = True  # type: ignore[attr-defined]


def remainder(x1: Arr, x2: Arr, /, *, modulus: bool = True, out: Arr | None = None) -> Arr:
    """``modulus=False`` is C's ``fmod`` (sign of the dividend)."""
    x1, x2 = _pair(x1, x2)
    if x1.dtype in WIDE_UNSIGNED:
        return _written(_divmod_unsigned(x1, x2)[1], out)
    if modulus and x1.is_floating_point():  # a zero takes x2's sign (0.0 % -1.0 is -0.0)
        ret = torch.remainder(x1, x2)
        return _written(torch.where(ret == 0, torch.copysign(ret, x2), ret), out)
    fn = torch.remainder if modulus else torch.fmod
    zero = x2 == 0
    if x1.dtype != torch.bool and not x1.is_floating_point() and bool(zero.any()):
        safe = torch.where(zero, torch.ones_like(x2), x2)  # 0, as NumPy (``integer_ops``)
        return _written(torch.where(zero, 0, fn(x1, safe)), out)
    return fn(x1, x2, out=out)


remainder.support_native_out = True  # type: ignore[attr-defined]


def bitwise_right_shift(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    """Wide unsigned: a logical shift on the int64 bits (shifts of 64 or more give 0)."""
    x1, x2 = _pair(x1, x2)
    if x1.dtype in WIDE_UNSIGNED:
        a, s = _unsigned.signed(x1), _unsigned.signed(x2)
        if x1.dtype == torch.uint64:
            s = torch.where((s < 0) | (s > 63), 64, s)  # as unsigned: 2**63 and more
            mask = ~((-1 << (63 - s.clamp(max=63))) << 1)
            a = torch.where(s > 63, 0, torch.bitwise_right_shift(a, s.clamp(max=63)) & mask)
            return _written(a.view(torch.uint64), out)
        return _written(torch.bitwise_right_shift(a, s).to(x1.dtype), out)
    return torch.bitwise_right_shift(x1, x2, out=out)


bitwise_right_shift.support_native_out = True  # type: ignore[attr-defined]


def clip(
    x: Arr, /, min: Arr | None = None, max: Arr | None = None, *, out: Arr | None = None
) -> Arr:
    """``maximum`` then ``minimum`` with the bounds cast to ``x``'s dtype (NaN bounds give
    NaN); ``torch.clamp`` raises without bounds and has no wide unsigned kernel."""
    x = ret = _t(x)
    low, high = bounds(primitives, x, min, max)
    if low is not None:
        ret = maximum(ret, low)
    if high is not None:
        ret = minimum(ret, high)
    return ret.clone() if ret is x else ret


def where(condition: Arr, x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    if type(condition) is not torch.Tensor or condition.dtype != torch.bool:
        condition = _t(condition).bool()
    return torch.where(condition, *_pair(x1, x2), out=out)


where.support_native_out = True  # type: ignore[attr-defined]


def nextafter(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return torch.nextafter(*_pair(x1, x2), out=out)


nextafter.support_native_out = True  # type: ignore[attr-defined]


def reciprocal(x: Arr, /, *, out: Arr | None = None) -> Arr:
    return divide(1, x, out=out)


reciprocal.support_native_out = True  # type: ignore[attr-defined]
