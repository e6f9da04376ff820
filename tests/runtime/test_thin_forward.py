"""Calls without ``out`` go straight to the native function a backend function only forwards
to, and only then (``dispatch.forward.thin_forward``)."""

from __future__ import annotations

import operator

import numpy as np

from ivycheck.runtime.backends.numpy import creation as numpy_creation
from ivycheck.runtime.backends.numpy import elementwise as numpy_elementwise
from ivycheck.runtime.backends.numpy import manipulation as numpy_manipulation
from ivycheck.runtime.backends.torch import elementwise as torch_elementwise
from ivycheck.runtime.dispatch.forward import Forward
from ivycheck.runtime.dispatch.forward import thin_forward as _thin_forward


def test_pure_forwarders_are_recognised() -> None:
    # ``out=out`` passed on: a call with ``out`` may take the native function too.
    assert _thin_forward(numpy_elementwise.add) == Forward(np.add, 2, frozenset(), out=True)
    assert _thin_forward(numpy_elementwise.tan) == Forward(np.tan, 1, frozenset(), out=True)
    # Positional parameters that are not arrays, keyword-only ones passed on by name, an
    # ``out`` the function does not pass on (only calls without ``out`` go direct).
    assert _thin_forward(numpy_manipulation.reshape) == Forward(np.reshape, 2, frozenset())
    assert _thin_forward(numpy_creation.zeros_like) == Forward(
        np.zeros_like, 1, frozenset({"dtype"})
    )
    # A size checked first (sizes.check_size) is more than a forward: NumPy's own error
    # for a shape too big would be another class than the other backends'.
    assert _thin_forward(numpy_creation.zeros) is None
    assert _thin_forward(_drops_out) == Forward(np.tan, 1, frozenset())
    # ``return x[query]``
    assert _thin_forward(numpy_manipulation.get_item) == Forward(operator.getitem, 2, frozenset())


def _scaled(x, /, *, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x * 2, out=out)


def _with_dtype(x, /, *, dtype=None, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x, out=out)


def _two_statements(x, /, *, out=None):  # type: ignore[no-untyped-def]
    y = x
    return np.tan(y, out=out)


def _drops_out(x, /, *, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x)


def _renames(x, /, *, axis=None, out=None):  # type: ignore[no-untyped-def]
    return np.sum(x, axis=0)


def _reorders(x, y, /, *, out=None):  # type: ignore[no-untyped-def]
    return np.subtract(y, x)


def _drops_keyword(x, /, *, axis=None, out=None):  # type: ignore[no-untyped-def]
    return np.sum(x)


def _indexes_other(x, query, /, *, out=None):  # type: ignore[no-untyped-def]
    return query[x]


def test_anything_else_is_called_as_written() -> None:
    for function in (
        _scaled,
        _with_dtype,
        _two_statements,
        _renames,
        _reorders,
        _drops_keyword,
        _indexes_other,
    ):
        assert _thin_forward(function) is None, function.__name__
    assert _thin_forward(torch_elementwise.add) is None  # converts its first argument
