"""Calls without ``out`` go straight to the native function a backend function only forwards
to, and only then (``func_wrapper._thin_forward``)."""

from __future__ import annotations

import numpy as np

from ivycheck.runtime.backends.numpy import elementwise as numpy_elementwise
from ivycheck.runtime.backends.torch import elementwise as torch_elementwise
from ivycheck.runtime.func_wrapper import _thin_forward


def test_pure_forwarders_are_recognised() -> None:
    assert _thin_forward(numpy_elementwise.add, 2) is np.add
    assert _thin_forward(numpy_elementwise.tan, 1) is np.tan


def _scaled(x, /, *, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x * 2, out=out)


def _with_dtype(x, /, *, dtype=None, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x, out=out)


def _two_statements(x, /, *, out=None):  # type: ignore[no-untyped-def]
    y = x
    return np.tan(y, out=out)


def _drops_out(x, /, *, out=None):  # type: ignore[no-untyped-def]
    return np.tan(x)


def test_anything_else_is_called_as_written() -> None:
    for function in (_scaled, _with_dtype, _two_statements, _drops_out):
        assert _thin_forward(function, 1) is None, function.__name__
    assert _thin_forward(numpy_elementwise.add, 1) is None  # wrong arity
    assert _thin_forward(torch_elementwise.add, 2) is None  # converts its first argument
