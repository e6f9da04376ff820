"""Complex special values (infinite, NaN and signed-zero parts) as the standard's tables say.

XLA's complex kernels and a few of PyTorch's and TensorFlow's differ from the C99 Annex G
values the standard requires (``exp(inf + nan j)``, ``log1p(nan + inf j)``, ``tanh(inf + 1j)``
...). One table serves every backend: :func:`repair` recomputes, with where-masks, the
elements the table covers and leaves every other element as the native kernel computed it.

The rules are written for the quadrant the standard's tables use (``b = imag(x) >= 0``, and
``a = real(x) >= 0`` for the odd and even functions); the symmetries the standard states for
each function (``f(conj(x)) == conj(f(x))``, ``f(-x) == -f(x)`` or ``f(-x) == f(x)``) carry
them to the other quadrants, so no sign case is written twice.

:func:`floor_of_quotient` is the one real table of the same kind: ``floor_divide`` with an
infinite operand.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

INF, NAN = math.inf, math.nan
PI = math.pi

# A class of a (non-negative where the function's symmetry folds it) component.
_CLASSES: dict[str, Callable[[Any, Any], Any]] = {
    "0": lambda ops, v: ops.equal(v, 0.0),
    "1": lambda ops, v: ops.equal(v, 1.0),
    "-1": lambda ops, v: ops.equal(v, -1.0),
    "nan": lambda ops, v: ops.isnan(v),
    "+inf": lambda ops, v: ops.equal(v, INF),
    "-inf": lambda ops, v: ops.equal(v, -INF),
    "inf": lambda ops, v: ops.isinf(v),
    "finite": lambda ops, v: ops.isfinite(v),
    "nonzero": lambda ops, v: ops.logical_and(ops.isfinite(v), ops.not_equal(v, 0.0)),
    "any": lambda ops, v: ops.logical_or(ops.isnan(v), ops.logical_not(ops.isnan(v))),
}

# A part of a rule's result: a constant, or computed from (ops, a, b) (``inf * cis(b)``).
Value = float | Callable[[Any, Any, Any], Any]
Rule = tuple[str, str, Value, Value]


def _cis(scale: float, part: str) -> Callable[[Any, Any, Any], Any]:
    """``scale * cos(b)`` or ``scale * sin(b)``: the part of ``scale * cis(b)``."""
    return lambda ops, a, b: ops.multiply(getattr(ops, part)(b), scale)


# name -> (symmetry, rules); a rule is (class of a, class of b, real part, imaginary part).
# "conj": f(conj(x)) == conj(f(x)); "odd": also f(-x) == -f(x); "even": also f(-x) == f(x).
_LOG_RULES: tuple[Rule, ...] = (
    ("finite", "+inf", INF, PI / 2),
    ("finite", "nan", NAN, NAN),
    ("-inf", "finite", INF, PI),
    ("+inf", "finite", INF, 0.0),
    ("-inf", "+inf", INF, 3 * PI / 4),
    ("+inf", "+inf", INF, PI / 4),
    ("inf", "nan", INF, NAN),
    ("nan", "finite", NAN, NAN),
    ("nan", "+inf", INF, NAN),
    ("nan", "nan", NAN, NAN),
)
_EXP_RULES: tuple[Rule, ...] = (
    ("-inf", "finite", _cis(0.0, "cos"), _cis(0.0, "sin")),
    ("+inf", "0", INF, 0.0),
    ("+inf", "nonzero", _cis(INF, "cos"), _cis(INF, "sin")),
    ("finite", "+inf", NAN, NAN),
    ("finite", "nan", NAN, NAN),
    ("-inf", "+inf", 0.0, 0.0),
    ("+inf", "+inf", INF, NAN),
    ("-inf", "nan", 0.0, 0.0),
    ("+inf", "nan", INF, NAN),
    ("nan", "0", NAN, 0.0),
    ("nan", "nonzero", NAN, NAN),
    ("nan", "+inf", NAN, NAN),
    ("nan", "nan", NAN, NAN),
)
TABLES: dict[str, tuple[str, tuple[Rule, ...]]] = {
    "acos": (
        "conj",
        (
            ("0", "0", PI / 2, -0.0),
            ("0", "nan", PI / 2, NAN),
            ("finite", "+inf", PI / 2, -INF),
            ("nonzero", "nan", NAN, NAN),
            ("-inf", "finite", PI, -INF),
            ("+inf", "finite", 0.0, -INF),
            ("-inf", "+inf", 3 * PI / 4, -INF),
            ("+inf", "+inf", PI / 4, -INF),
            ("inf", "nan", NAN, INF),
            ("nan", "finite", NAN, NAN),
            ("nan", "+inf", NAN, -INF),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "acosh": (
        "conj",
        (
            ("finite", "+inf", INF, PI / 2),
            ("nonzero", "nan", NAN, NAN),
            ("0", "nan", NAN, PI / 2),
            ("-inf", "finite", INF, PI),
            ("+inf", "finite", INF, 0.0),
            ("-inf", "+inf", INF, 3 * PI / 4),
            ("+inf", "+inf", INF, PI / 4),
            ("inf", "nan", INF, NAN),
            ("nan", "finite", NAN, NAN),
            ("nan", "+inf", INF, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "asinh": (
        "odd",
        (
            ("finite", "+inf", INF, PI / 2),
            ("finite", "nan", NAN, NAN),
            ("+inf", "finite", INF, 0.0),
            ("+inf", "+inf", INF, PI / 4),
            ("+inf", "nan", INF, NAN),
            ("nan", "0", NAN, 0.0),
            ("nan", "nonzero", NAN, NAN),
            ("nan", "+inf", INF, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "atanh": (
        "odd",
        (
            ("0", "nan", 0.0, NAN),
            ("finite", "+inf", 0.0, PI / 2),
            ("nonzero", "nan", NAN, NAN),
            ("+inf", "finite", 0.0, PI / 2),
            ("+inf", "+inf", 0.0, PI / 2),
            ("+inf", "nan", 0.0, NAN),
            ("nan", "finite", NAN, NAN),
            ("nan", "+inf", 0.0, PI / 2),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "cosh": (
        "even",
        (
            ("0", "+inf", NAN, 0.0),
            ("0", "nan", NAN, 0.0),
            ("nonzero", "+inf", NAN, NAN),
            ("nonzero", "nan", NAN, NAN),
            ("+inf", "+inf", INF, NAN),
            ("+inf", "nan", INF, NAN),
            ("nan", "0", NAN, 0.0),
            ("nan", "nonzero", NAN, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "sinh": (
        "odd",
        (
            ("0", "+inf", 0.0, NAN),
            ("0", "nan", 0.0, NAN),
            ("nonzero", "+inf", NAN, NAN),
            ("nonzero", "nan", NAN, NAN),
            ("+inf", "+inf", INF, NAN),
            ("+inf", "nan", INF, NAN),
            ("nan", "0", NAN, 0.0),
            ("nan", "nonzero", NAN, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "tanh": (
        "odd",
        (
            ("nonzero", "+inf", NAN, NAN),
            ("0", "+inf", 0.0, NAN),
            ("nonzero", "nan", NAN, NAN),
            ("0", "nan", 0.0, NAN),
            ("+inf", "finite", 1.0, 0.0),
            ("+inf", "+inf", 1.0, 0.0),
            ("+inf", "nan", 1.0, 0.0),
            ("nan", "0", NAN, 0.0),
            ("nan", "nonzero", NAN, NAN),
            ("nan", "+inf", NAN, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
    "exp": ("conj", _EXP_RULES),
    "expm1": (
        "conj",
        (  # exp(x) - 1: the real part of exp's zeros (a = -inf) is -1; +-0 + 0j gives +0 + 0j
            ("0", "0", 0.0, 0.0),
            ("-inf", "finite", -1.0, _cis(0.0, "sin")),
            *((a, b, -1.0 if a == "-inf" else re, im) for a, b, re, im in _EXP_RULES[1:]),
        ),
    ),
    "log": ("conj", _LOG_RULES),
    "log1p": ("conj", (("-1", "0", -INF, 0.0), *_LOG_RULES)),
    "sqrt": (
        "conj",
        (
            ("any", "+inf", INF, INF),
            ("finite", "nan", NAN, NAN),
            ("-inf", "finite", 0.0, INF),
            ("+inf", "finite", INF, 0.0),
            ("-inf", "nan", NAN, INF),
            ("+inf", "nan", INF, NAN),
            ("nan", "finite", NAN, NAN),
            ("nan", "nan", NAN, NAN),
        ),
    ),
}


def repair(
    ops: Any, make_complex: Callable[[Any, Any], Any], name: str, x: Any, fn: Callable[[Any], Any]
) -> Any:
    """The native ``fn`` (``name``) of complex ``x``, as the standard's table says.

    ``fn`` runs on ``a + |b| j`` and its result is conjugated back where ``b`` is negative
    (``-0.0`` included): the symmetry every one of these functions has, which also puts
    branch cuts on the side the sign of a zero imaginary part says (XLA's ``sqrt(-1 - 0j)``
    is ``+1j``). ``ops`` is the backend's elementwise module (its ``real``, ``imag``,
    ``isnan`` ... follow the standard on real arrays); ``make_complex(re, im)`` builds a
    complex array from its parts without arithmetic (``inf * 1j`` has a NaN real part).
    """
    symmetry, rules = TABLES[name]
    a, b = ops.real(x), ops.imag(x)
    ca, cb = (a if symmetry == "conj" else ops.abs(a)), ops.abs(b)
    ret = fn(make_complex(a, cb))
    re, im = ops.real(ret), ops.imag(ret)
    hit = None
    new_re, new_im = re, im
    for class_a, class_b, value_re, value_im in rules:
        mask = ops.logical_and(_CLASSES[class_a](ops, ca), _CLASSES[class_b](ops, cb))
        new_re = ops.where(mask, _value(ops, value_re, ca, cb), new_re)
        new_im = ops.where(mask, _value(ops, value_im, ca, cb), new_im)
        hit = mask if hit is None else ops.logical_or(hit, mask)
    if symmetry == "even":  # f(-x) == f(x): the rules' a >= 0 result conjugated for a < 0
        new_im = ops.where(ops.signbit(a), ops.negative(new_im), new_im)
    if symmetry == "odd":  # f(-x) == -f(x) with f(conj(x)) == conj(f(x)): real part negated
        new_re = ops.where(ops.signbit(a), ops.negative(new_re), new_re)
    re, im = ops.where(hit, new_re, re), ops.where(hit, new_im, im)
    return make_complex(re, ops.where(ops.signbit(b), ops.negative(im), im))


def _value(ops: Any, value: Value, a: Any, b: Any) -> Any:
    return value(ops, a, b) if callable(value) else value


def pow_of_zero(
    ops: Any, make_complex: Callable[[Any, Any], Any], x1: Any, x2: Any, ret: Any
) -> Any:
    """``ret``, the native ``x1 ** x2`` of complex operands, where ``x1`` is zero as NumPy
    gives it: 1 for a zero exponent, 0 for an exponent with a positive real part, NaN + NaN j
    otherwise. The kernels compute ``exp(x2 * log(0))``, which is NaN for XLA's
    ``0 ** (1 + 1j)`` and ``inf + nan j`` for PyTorch's and TensorFlow's ``0 ** -1``. Every
    other element keeps the kernel's value; ``ops`` and ``make_complex`` as for
    :func:`repair`."""
    a2, b2 = ops.real(x2), ops.imag(x2)
    base_zero = ops.logical_and(ops.equal(ops.real(x1), 0.0), ops.equal(ops.imag(x1), 0.0))
    re, im = ops.real(ret), ops.imag(ret)
    re, im = ops.where(base_zero, NAN, re), ops.where(base_zero, NAN, im)
    to_zero = ops.logical_and(base_zero, ops.greater(a2, 0.0))
    re, im = ops.where(to_zero, 0.0, re), ops.where(to_zero, 0.0, im)
    exponent_zero = ops.logical_and(ops.equal(a2, 0.0), ops.equal(b2, 0.0))
    to_one = ops.logical_and(base_zero, exponent_zero)
    return make_complex(ops.where(to_one, 1.0, re), ops.where(to_one, 0.0, im))


def floor_of_quotient(ops: Any, x1: Any, x2: Any, ret: Any) -> Any:
    """``floor_divide``'s float result ``ret`` with ``floor(x1 / x2)`` where an operand is
    infinite: the values the standard prefers (``inf // 2`` is ``inf``, ``-1.0 // inf`` is
    ``-0.0``; the 2024.12 suite tests them), where Python, NumPy and PyTorch pair ``//`` with
    ``%`` (NaN, -1.0). ``ops`` is the backend's elementwise module, on native operands."""
    infinite = ops.logical_or(ops.isinf(x1), ops.isinf(x2))
    return ops.where(infinite, ops.floor(ops.divide(x1, x2)), ret)
