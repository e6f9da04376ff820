"""``__array_namespace_info__()``: what the namespace supports, as the standard asks; and the
version of the standard the namespace implements.

The runtime is CPU-only on every backend and its defaults do not depend on the backend
(``dtypes.DEFAULT_*``), so one answer serves the four backends.

The namespace implements the 2025.12 standard (``ivy.__array_api_version__``); every name of
2024.12 and 2025.12 is there whatever the version. Where a later version changed a behaviour,
``ivy.set_array_api_version("2023.12")`` (or ``"2024.12"``) gives the earlier one:
``meshgrid``, ``broadcast_arrays`` and ``__array_namespace_info__().devices()`` return a
``list`` before 2025.12 and a ``tuple`` from it (:func:`as_sequence`).
"""

from __future__ import annotations

from typing import Any

from ivycheck.runtime import dtypes
from ivycheck.runtime.dtypes import Dtype
from ivycheck.runtime.exceptions import IvyValueError

DEVICES = ["cpu"]
VERSIONS = ("2023.12", "2024.12", "2025.12")
"""Versions of the standard the namespace can behave as; the last is the default."""


class _Version:
    current = VERSIONS[-1]


def array_api_version() -> str:
    """The version of the standard the namespace behaves as (``ivy.__array_api_version__``)."""
    return _Version.current


def set_array_api_version(version: str) -> None:
    """Behave as ``version`` of the standard where versions differ (one of :data:`VERSIONS`)."""
    if version not in VERSIONS:
        raise IvyValueError(f"unknown Array API version {version!r}; the runtime has {VERSIONS}")
    _Version.current = version


def as_sequence(items: Any) -> Any:
    """``items`` as the version asks a sequence of arrays to be returned: a ``tuple`` from
    2025.12, a ``list`` before."""
    return tuple(items) if _Version.current >= "2025.12" else list(items)


def _check_device(device: Any) -> None:
    if device is not None and device not in DEVICES:
        raise IvyValueError(f"unknown device {device!r}; the runtime has {DEVICES}")


class Info:
    """The inspection namespace returned by ``ivy.__array_namespace_info__()``."""

    __slots__ = ()

    def capabilities(self) -> dict[str, Any]:
        """Boolean-mask indexing and data-dependent output shapes (``unique_*``, ``nonzero``)
        work on every backend; no limit on the number of dimensions beyond NumPy's."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """``"cpu"``."""
        return DEVICES[0]

    def devices(self) -> Any:
        """``("cpu",)`` (``["cpu"]`` before 2025.12)."""
        return as_sequence(DEVICES)

    def default_dtypes(self, *, device: Any = None) -> dict[str, Dtype]:
        """The defaults every creation function uses when no dtype is given."""
        _check_device(device)
        return {
            "real floating": dtypes.DEFAULT_FLOAT,
            "complex floating": dtypes.DEFAULT_COMPLEX,
            "integral": dtypes.DEFAULT_INT,
            "indexing": dtypes.DEFAULT_INDEX,
        }

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict[str, Dtype]:
        """The standard's dtypes by name, optionally of ``kind`` (as in ``isdtype``)."""
        _check_device(device)
        return {str(d): d for d in dtypes.STANDARD if kind is None or dtypes.isdtype(d, kind)}


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The inspection namespace (one object: it holds no state)."""
    return _INFO
