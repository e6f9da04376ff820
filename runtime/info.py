"""``__array_namespace_info__()``: what the namespace supports, as the standard asks.

The runtime is CPU-only on every backend and its defaults do not depend on the backend
(``dtypes.DEFAULT_*``), so one answer serves the four backends.
"""

from __future__ import annotations

from typing import Any

from ivycheck.runtime import dtypes
from ivycheck.runtime.dtypes import Dtype
from ivycheck.runtime.exceptions import IvyValueError

DEVICES = ["cpu"]


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

    def devices(self) -> list[str]:
        """``["cpu"]``."""
        return list(DEVICES)

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
