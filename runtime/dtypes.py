"""Dtypes named by string, shared by every backend, and the standard's type promotion.

A dtype is a :class:`Dtype` (not a ``str``, as the standard asks) equal to its name, so that
``ivy.float32 == "float32"`` holds and a name can be passed wherever a dtype is accepted. Promotion (:func:`result_type`) is the Array API 2023.12
lattice, computed here once so that every backend -- TensorFlow included, which has no
promotion of its own -- returns the same dtype. Writing into an existing array (``out``,
``inplace_update``) uses NumPy's ``same_kind`` rule (:func:`can_write`), the one oracle every
backend is compared against.

Cross-kind combinations the standard leaves to the implementation (``int32`` with
``float32``, ``bool`` with ``int8``) give the operand of the higher kind, as JAX does; the one
combination with no lossless answer, ``uint64`` with a signed integer, raises.

The dtype *policy* -- the standard's default dtype of Python values (:func:`default_dtype`)
and of accumulations (:func:`accumulation_dtype`) -- is here too, below the backends: the
backends ask it on every ``arange``/``full``/``sum``, and a backend may import only what
lies below it (nothing of ``functional/``).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ivycheck.runtime.exceptions import IvyTypeError, IvyValueError


class Dtype:
    """A dtype of the runtime, named like ``"float32"``; one object per name (``DTYPES``).

    Not a ``str``: the standard asks that a dtype not be a Python string (``finfo(...).dtype``
    is checked for it). It still compares equal to its name and hashes like it, so
    ``ivy.float32 == "float32"`` holds and a dtype finds a table keyed by names -- the runtime
    accepts names wherever it accepts dtypes. Backends get ``str(dtype)`` (``native_dtype``).
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def __setattr__(self, attr: str, value: object) -> None:
        raise AttributeError(f"{self!r} is immutable")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dtype):
            return self.name == other.name
        if isinstance(other, str):
            return self.name == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.name)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"ivy.{self.name}"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return as_dtype, (self.name,)


NAMES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
DTYPES: dict[str, Dtype] = {name: Dtype(name) for name in NAMES}
STANDARD = tuple(DTYPES[n] for n in NAMES if n != "float16")
"""The dtypes of the 2023.12 standard (``float16`` is an extension)."""
DEFAULT_FLOAT = DTYPES["float32"]
"""The default floating-point dtype in use: float32 unless :func:`set_default_float` chose
float64. Read it as ``dtypes.DEFAULT_FLOAT`` at the time of use (a name imported from this
module keeps the value it had then); :func:`default_float` is the same."""
DEFAULT_INT = DTYPES["int64"]
DEFAULT_COMPLEX = DTYPES["complex64"]
"""The default complex dtype in use: the complex dtype of :data:`DEFAULT_FLOAT`'s precision."""
DEFAULT_INDEX = DTYPES["int64"]

SCALAR_TYPES = (bool, int, float, complex)
"""The Python scalars an array operation accepts (weakly typed in promotion)."""
_SCALAR_KIND = {bool: "b", int: "i", float: "f", complex: "c"}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_KIND = {
    "bool": "b",
    **{f"int{b}": "i" for b in (8, 16, 32, 64)},
    **{f"uint{b}": "u" for b in (8, 16, 32, 64)},
    **{f"float{b}": "f" for b in (16, 32, 64)},
    **{f"complex{b}": "c" for b in (64, 128)},
}
_BITS = {name: int(re.sub(r"\D", "", name) or 8) for name in NAMES}


_KNOWN: dict[object, Dtype] = {}
""":func:`as_dtype` of the native dtypes and Python types seen so far. A native dtype
(``np.dtype``, ``torch.dtype``, ``tf.DType``) is immutable and hashable and its name never
changes, so its name is worked out once; promotion of native arrays (PyTorch's and
TensorFlow's binary functions) asks for it on every call."""


def as_dtype(dtype: object) -> Dtype:
    """Normalise a dtype given as a name, a ``Dtype``, a native dtype or a Python type."""
    if isinstance(dtype, Dtype):
        return dtype
    if isinstance(dtype, str):
        if dtype not in DTYPES:
            raise IvyTypeError(f"unsupported dtype {dtype!r}; use one of {', '.join(NAMES)}")
        return DTYPES[dtype]
    try:
        return _KNOWN[dtype]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        pass
    name = _native_dtype_name(dtype)
    if not isinstance(name, str) or name not in DTYPES:
        raise IvyTypeError(f"unsupported dtype {dtype!r}; use one of {', '.join(NAMES)}")
    result = DTYPES[name]
    with contextlib.suppress(TypeError):
        _KNOWN[dtype] = result
    return result


def _native_dtype_name(dtype: object) -> str:
    """The name of a NumPy/JAX ``np.dtype``, a ``torch.dtype``, a ``tf.DType`` or a type."""
    if isinstance(dtype, np.dtype):
        return dtype.name
    text = str(dtype)
    if text.startswith("torch."):
        return text.removeprefix("torch.")
    name = getattr(dtype, "name", None)
    if isinstance(name, str) and name in DTYPES:  # tf.DType
        return name
    try:
        return np.dtype(dtype).name  # type: ignore[call-overload, no-any-return]
    except TypeError:
        return text


def dtype_of(x: object) -> Dtype:
    """The dtype of an ``Array``, a native array, a dtype, or a NumPy scalar."""
    if isinstance(x, (str, Dtype)):
        return as_dtype(x)
    native = getattr(x, "dtype", None)
    if native is not None:
        return as_dtype(native)
    return as_dtype(x)


def kind(dtype: object) -> str:
    """``"b"``, ``"i"``, ``"u"``, ``"f"`` or ``"c"``."""
    return _KIND[as_dtype(dtype).name]


def _promote(a: Dtype, b: Dtype) -> Dtype:
    """The standard's promotion of two dtypes (the lattice of the 2023.12 specification)."""
    if a is b or a == b:  # ``is``: the common case, one object per name (``DTYPES``)
        return a
    ka, kb = _KIND[a.name], _KIND[b.name]
    if ka == kb:
        return a if _BITS[a.name] >= _BITS[b.name] else b
    if {ka, kb} == {"i", "u"}:
        signed, unsigned = (a, b) if ka == "i" else (b, a)
        if _BITS[signed.name] > _BITS[unsigned.name]:
            return signed
        if _BITS[unsigned.name] == 64:
            raise IvyTypeError(
                f"no promotion of {a} and {b}: uint64 with a signed integer has no integer "
                "dtype holding both (cast one of them first)"
            )
        return DTYPES[f"int{2 * _BITS[unsigned.name]}"]
    if {ka, kb} == {"f", "c"}:
        real, cplx = (a, b) if ka == "f" else (b, a)
        return DTYPES[f"complex{2 * max(_BITS[real.name], _BITS[cplx.name] // 2, 32)}"]
    # Cross-kind, not defined by the standard: the operand of the higher kind.
    return a if _KIND_RANK[ka] > _KIND_RANK[kb] else b


def _with_scalar(dtype: Dtype, scalar_kind: str) -> Dtype:
    """An array dtype combined with a weakly typed Python scalar of ``scalar_kind``."""
    k = _KIND[dtype.name]
    if scalar_kind == "c" and k == "f":
        return complex_dtype(dtype)
    if _KIND_RANK[scalar_kind] <= _KIND_RANK[k]:
        return dtype
    return _default_for(scalar_kind)


def _default_for(scalar_kind: str) -> Dtype:
    return {"b": DTYPES["bool"], "i": DEFAULT_INT, "u": DEFAULT_INT, "f": DEFAULT_FLOAT}.get(
        scalar_kind, DEFAULT_COMPLEX
    )


def result_type(*arrays_and_dtypes: Any) -> Dtype:
    """The dtype the standard gives an operation on these operands.

    Operands are dtypes (``ivy.int8``, ``"int8"``, native dtypes), arrays (``ivy.Array`` or
    native) and Python scalars; scalars are weak, as the standard's "mixing arrays with Python
    scalars" says: ``int8 array + 1`` stays ``int8``, ``int8 array + 1.5`` is the default float.
    With scalars only, the default dtype of the highest scalar kind.
    """
    if not arrays_and_dtypes:
        raise IvyValueError("result_type needs at least one array or dtype")
    result: Dtype | None = None
    scalar_kinds: list[str] = []
    for item in arrays_and_dtypes:
        scalar_kind = _SCALAR_KIND.get(type(item))
        if scalar_kind is not None:
            scalar_kinds.append(scalar_kind)
            continue
        dtype = dtype_of(item)
        result = dtype if result is None else _promote(result, dtype)
    if result is None:
        return _default_for(max(scalar_kinds, key=_KIND_RANK.__getitem__))
    for scalar_kind in scalar_kinds:
        result = _with_scalar(result, scalar_kind)
    return result


def can_cast(from_: Any, to: Any, /) -> bool:
    """The standard's ``can_cast``: whether promotion of ``from_`` with ``to`` gives ``to``.

    ``from_`` is a dtype or an array. Cross-kind casts (``int32`` to ``float64``) are allowed
    where this module's promotion allows them; ``uint64`` to a signed integer never is.
    """
    source, target = dtype_of(from_), as_dtype(to)
    try:
        return _promote(source, target) == target
    except IvyTypeError:
        return False


def can_write(src: object, dst: str) -> bool:
    """Whether ``src`` (a dtype name, a Python or NumPy scalar) may be written into ``dst``.

    The rule of ``out=`` and ``inplace_update``: NumPy's ``same_kind`` casting. Python
    scalars are weak, as in NumPy 2: only their kind matters (``1`` fits ``uint8``, ``1.5``
    does not fit ``int32``).
    """
    scalar_kind = _SCALAR_KIND.get(type(src))
    if scalar_kind is not None:
        return _KIND_RANK[scalar_kind] <= _KIND_RANK[np.dtype(str(dst)).kind]
    # A NumPy scalar (``np.float64(0.0)``, a ``float`` subclass) has a dtype of its own: its
    # text is its value, not a dtype name.
    source = src.dtype if isinstance(src, np.generic) else np.dtype(str(src))
    return bool(np.can_cast(source, np.dtype(str(dst)), casting="same_kind"))


def infer_from_values(values: Sequence[object]) -> Dtype:
    """Default dtype for Python values: bool, int64 for ints, the default float for floats."""
    kinds = {_SCALAR_KIND.get(type(v), "f") for v in values}
    if not kinds or kinds & {"f", "c"}:
        return DEFAULT_COMPLEX if "c" in kinds else DEFAULT_FLOAT
    return DTYPES["bool"] if kinds == {"b"} else DEFAULT_INT


# -- finfo / iinfo / isdtype -------------------------------------------------------------------


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (for complex: of its real component)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: Dtype


@dataclass(frozen=True)
class iinfo_object:
    """Limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: Dtype


def finfo(type: Any, /) -> finfo_object:
    """Limits of a real or complex floating-point dtype (or of an array's dtype)."""
    dtype = dtype_of(type)
    if _KIND[dtype.name] not in "fc":
        raise IvyValueError(f"finfo: {dtype} is not a floating-point dtype")
    info = np.finfo(np.dtype(str(dtype)))
    real = as_dtype(info.dtype.name)
    return finfo_object(
        bits=int(info.bits),
        eps=float(info.eps),
        max=float(info.max),
        min=float(info.min),
        smallest_normal=float(info.smallest_normal),
        dtype=real,
    )


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype (or of an array's dtype)."""
    dtype = dtype_of(type)
    if _KIND[dtype.name] not in "iu":
        raise IvyValueError(f"iinfo: {dtype} is not an integer dtype")
    info = np.iinfo(np.dtype(str(dtype)))
    return iinfo_object(bits=int(info.bits), max=int(info.max), min=int(info.min), dtype=dtype)


_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}


def isdtype(dtype: Any, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, a kind name, or a tuple of either."""
    d = as_dtype(dtype)
    if isinstance(kind, tuple):
        return any(isdtype(d, k) for k in kind)
    if isinstance(kind, str) and kind in _KINDS:
        return _KIND[d.name] in _KINDS[kind]
    if isinstance(kind, str) and kind not in DTYPES:
        raise IvyValueError(f"isdtype: unknown kind {kind!r}; use one of {', '.join(_KINDS)}")
    return d == as_dtype(kind)


def real_dtype(dtype: Any) -> Dtype:
    """The real dtype of a complex dtype (``complex64`` -> ``float32``); others unchanged."""
    d = as_dtype(dtype)
    return DTYPES[f"float{_BITS[d.name] // 2}"] if _KIND[d.name] == "c" else d


def complex_dtype(dtype: Any) -> Dtype:
    """The complex dtype of a float dtype (``float32`` -> ``complex64``); complex unchanged."""
    d = as_dtype(dtype)
    if _KIND[d.name] == "c":
        return d
    return DTYPES[f"complex{2 * max(_BITS[d.name], 32)}"]


e = math.e
inf = math.inf
nan = math.nan
pi = math.pi


# -- dtype policy: the standard's defaults, asked by the backends and the functional API --


def default_dtype(*values: object) -> Dtype:
    """The standard's default for Python values: bool for bools only, the default complex
    dtype if any is complex, else the default float if any is not an int, else int64."""
    kinds = tuple(map(type, values))
    known = _DEFAULTS.get(kinds)
    if known is not None:
        return known
    present = [v for v in values if v is not None]
    if present and all(type(v) is bool for v in present):
        result = DTYPES["bool"]
    elif any(isinstance(v, complex) for v in present):
        result = DEFAULT_COMPLEX
    elif any(not isinstance(v, int) for v in present):
        result = DEFAULT_FLOAT
    else:
        result = DEFAULT_INT
    _DEFAULTS[kinds] = result
    return result


_DEFAULTS: dict[tuple[type, ...], Dtype] = {}
""":func:`default_dtype` by the types of the values: the answer depends on nothing else but
the default float dtype (which empties it), and ``arange``/``full`` ask on every call."""

FLOAT_DEFAULTS = ("float32", "float64")
"""The default float dtypes :func:`set_default_float` accepts (the standard's two choices)."""

_REMEMBERED: list[dict[Any, Any]] = [_DEFAULTS]
"""Every table of answers that follow from the default float dtype (this module's and the
backends' ``default_native``, :func:`remembered`): emptied when it changes."""


def remembered(table: dict[Any, Any]) -> dict[Any, Any]:
    """``table``, a cache of answers derived from the default float dtype, registered to be
    emptied by :func:`set_default_float`; returns it."""
    _REMEMBERED.append(table)
    return table


def default_float() -> Dtype:
    """The default floating-point dtype in use (float32 unless set otherwise)."""
    return DEFAULT_FLOAT


def set_default_float(dtype: Any) -> None:
    """Make ``dtype`` (float32 or float64) the default floating-point dtype, and the complex
    dtype of its precision the default complex dtype, for every later answer of this module
    and of the caches registered with :func:`remembered`.

    Below the dispatcher: the built dispatchers hold the default's native dtype, so the public
    setter (``ivy.set_default_float_dtype``) also rebuilds them."""
    global DEFAULT_FLOAT, DEFAULT_COMPLEX
    try:
        chosen = as_dtype(dtype)
    except (IvyTypeError, TypeError) as e:
        raise IvyValueError(
            f"set_default_float_dtype: {dtype!r} is not a dtype; use one of {FLOAT_DEFAULTS}"
        ) from e
    if chosen.name not in FLOAT_DEFAULTS:
        raise IvyValueError(
            f"set_default_float_dtype: the default float dtype is float32 or float64, not {chosen}"
        )
    DEFAULT_FLOAT = chosen
    DEFAULT_COMPLEX = complex_dtype(chosen)
    for table in _REMEMBERED:
        table.clear()


def accumulation_dtype(dtype: Dtype | str) -> Dtype:
    """The standard's result dtype of ``sum``/``prod``/``cumulative_sum`` without ``dtype=``:
    bool and signed integers give the default integer, unsigned ones uint64, others their own.
    """
    d = as_dtype(dtype)
    if kind(d) in "bi":
        return DEFAULT_INT
    if kind(d) == "u":
        return DTYPES["uint64"]
    return d
