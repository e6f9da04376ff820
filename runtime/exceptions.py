"""The runtime's own exceptions.

Callers catch one family (``IvyException``) whatever backend is in use; the backend's original
exception is kept as ``__cause__`` and its message is repeated, so nothing is lost by wrapping.
"""

from __future__ import annotations


class IvyException(Exception):
    """Base class of every error the runtime raises on purpose."""


class IvyBackendException(IvyException):
    """A backend function failed; the message starts with the backend and function name."""


_STANDARD = (
    IndexError,
    KeyError,
    ValueError,
    TypeError,
    ZeroDivisionError,
    OverflowError,
    NotImplementedError,
    RuntimeError,
)
"""Python's exception types a backend error keeps through the wrap (``except IndexError``)."""
_BACKEND_TYPES: dict[tuple[type[Exception], ...], type[IvyBackendException]] = {}


def backend_exception(
    message: str, original: BaseException, extra: tuple[type[Exception], ...] = ()
) -> IvyBackendException:
    """An :class:`IvyBackendException` that is also the Python type(s) ``original`` is.

    A bad ``expand_dims`` axis raises ``IndexError`` in NumPy and must still be caught by
    ``except IndexError`` after the wrap (the Array API says which standard type each misuse
    raises), so the class derives from both; one class per combination, made on first use.
    ``extra`` adds the Python types a backend's own exception stands for (TensorFlow's
    ``InvalidArgumentError`` is a ``ValueError``).
    """
    bases = tuple(
        t for t in _STANDARD if isinstance(original, t) or any(issubclass(e, t) for e in extra)
    )
    cls = _BACKEND_TYPES.get(bases)
    if cls is None:
        name = "IvyBackend" + "".join(t.__name__ for t in bases) if bases else "IvyBackendError"
        try:
            cls = type(name, (IvyBackendException, *bases), {"__module__": __name__})
        except TypeError:  # incompatible layouts: keep the first type only
            cls = type(name, (IvyBackendException, *bases[:1]), {"__module__": __name__})
        _BACKEND_TYPES[bases] = cls
    return cls(message)


class IvyValueError(IvyException, ValueError):
    """An argument has the right type but an unusable value (shape, dtype, axis ...)."""


class IvyAxisError(IvyException, IndexError, ValueError):
    """An axis outside ``[-ndim, ndim)``: an ``IndexError`` as the standard says, and a
    ``ValueError`` as NumPy's ``AxisError`` is, so either ``except`` catches it."""


class IvyTypeError(IvyException, TypeError):
    """An argument has the wrong type, e.g. a native array passed as ``out``."""


class IvyBufferError(IvyException, BufferError):
    """A buffer cannot be shared as asked: ``from_dlpack(x, copy=False)`` of memory the
    backend can only import by copying (the standard's ``BufferError``)."""


class InplaceUpdateException(IvyException):
    """An in-place update cannot be done; raised before anything is written."""


class IvyNotImplementedException(IvyException, NotImplementedError):
    """No backend implementation and no ``__ivy_array_function__`` handled the call."""


__all__ = [
    "InplaceUpdateException",
    "IvyAxisError",
    "IvyBackendException",
    "IvyBufferError",
    "IvyException",
    "IvyNotImplementedException",
    "IvyTypeError",
    "IvyValueError",
    "backend_exception",
]
