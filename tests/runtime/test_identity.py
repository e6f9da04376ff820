"""Public functions keep their identity across ``set_backend`` and dispatch to the backend set.

A registry keyed by runtime functions -- the NumPy ``__array_function__`` pattern, used with
``__ivy_array_function__`` -- must keep matching after the backend changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.functional import elementwise

from .conftest import BACKENDS


@pytest.mark.parametrize("name", ["abs", "add", "reshape", "asarray", "matmul", "sum", "astype"])
def test_public_function_is_one_object_across_backends(name: str) -> None:
    before = getattr(ivy, name)
    for backend in BACKENDS:
        with ivy.using_backend(backend):
            assert getattr(ivy, name) is before, backend
    assert getattr(ivy, name) is before


def test_module_function_and_namespace_function_are_the_same_object() -> None:
    assert elementwise.abs is ivy.abs
    with ivy.using_backend("torch"):
        assert elementwise.abs is ivy.abs


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_function_taken_before_set_backend_dispatches_to_the_new_backend(backend: str) -> None:
    abs_ = ivy.abs
    with ivy.using_backend(backend) as module:
        x = ivy.asarray([-1.5, 2.0])
        result = abs_(x)
        assert isinstance(result.data, module.primitives.NATIVE_TYPES)
        np.testing.assert_array_equal(ivy.to_numpy(result), [1.5, 2.0])
        one_d = ivy.add(x, x, out=ivy.zeros((2,)))  # the general path too
        assert isinstance(one_d.data, module.primitives.NATIVE_TYPES)


class Logged:
    """A duck array whose handlers are registered per runtime function."""

    HANDLERS: ClassVar[dict[Callable[..., Any], Callable[..., Any]]] = {}

    def __ivy_array_function__(
        self, func: Callable[..., Any], types: Any, args: Any, kwargs: Any
    ) -> Any:
        handler = self.HANDLERS.get(func)
        return NotImplemented if handler is None else handler(*args, **kwargs)


Logged.HANDLERS[ivy.abs] = lambda x: "handled abs"


@pytest.mark.parametrize("backend", BACKENDS)
def test_registry_keyed_by_runtime_function_still_matches_after_set_backend(backend: str) -> None:
    with ivy.using_backend(backend):
        assert ivy.abs(Logged()) == "handled abs"
