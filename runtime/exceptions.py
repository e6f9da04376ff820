"""The runtime's own exceptions.

Callers catch one family (``IvyException``) whatever backend is in use; the backend's original
exception is kept as ``__cause__`` and its message is repeated, so nothing is lost by wrapping.
"""

from __future__ import annotations


class IvyException(Exception):
    """Base class of every error the runtime raises on purpose."""


class IvyBackendException(IvyException):
    """A backend function failed; the message starts with the backend and function name."""


class IvyValueError(IvyException, ValueError):
    """An argument has the right type but an unusable value (shape, dtype, axis ...)."""


class IvyTypeError(IvyException, TypeError):
    """An argument has the wrong type, e.g. a native array passed as ``out``."""


class InplaceUpdateException(IvyException):
    """An in-place update cannot be done; raised before anything is written."""


class IvyNotImplementedException(IvyException, NotImplementedError):
    """No backend implementation and no ``__ivy_array_function__`` handled the call."""


__all__ = [
    "InplaceUpdateException",
    "IvyBackendException",
    "IvyException",
    "IvyNotImplementedException",
    "IvyTypeError",
    "IvyValueError",
]
