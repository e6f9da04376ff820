"""Dtypes named by string, shared by every backend.

A dtype is a ``str`` subclass so that ``ivy.float32 == "float32"`` holds and a dtype can be
passed wherever a name is accepted. Casting rules come from NumPy (``same_kind``), the one
oracle every backend is compared against.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class Dtype(str):
    """A dtype name such as ``"float32"``; compares equal to the plain string."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ivy.{self}"


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
DEFAULT_FLOAT = DTYPES["float32"]
DEFAULT_INT = DTYPES["int64"]

_SCALAR_KIND = {bool: "b", int: "i", float: "f", complex: "c"}
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def as_dtype(dtype: object) -> Dtype:
    """Normalise a dtype given as a string, a ``Dtype`` or anything NumPy understands."""
    if isinstance(dtype, Dtype):
        return dtype
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name  # type: ignore[call-overload]
    if name not in DTYPES:
        raise ValueError(f"unsupported dtype {dtype!r}; use one of {', '.join(NAMES)}")
    return DTYPES[name]


def can_cast(src: object, dst: str) -> bool:
    """Whether ``src`` (a dtype name or a Python scalar) may be written into ``dst``.

    Python scalars are weak, as in NumPy 2: only their kind matters (``1`` fits ``uint8``,
    ``1.5`` does not fit ``int32``).
    """
    kind = _SCALAR_KIND.get(type(src))
    if kind is not None:
        return _KIND_RANK[kind] <= _KIND_RANK[np.dtype(dst).kind]
    return bool(np.can_cast(np.dtype(str(src)), np.dtype(dst), casting="same_kind"))


def infer_from_values(values: Sequence[object]) -> Dtype:
    """Default dtype for Python values: bool, int64 for ints, float32 for floats."""
    kinds = {_SCALAR_KIND.get(type(v), "f") for v in values}
    if not kinds or kinds & {"f", "c"}:
        return DEFAULT_FLOAT
    return DTYPES["bool"] if kinds == {"b"} else DEFAULT_INT
