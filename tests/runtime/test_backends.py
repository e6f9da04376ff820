"""Backend selection: default, stack, context manager, clear errors."""

from __future__ import annotations

import pytest

import ivycheck.runtime as ivy


def test_numpy_is_the_default() -> None:
    assert ivy.current_backend_str() == "numpy"
    assert ivy.to_numpy(ivy.add(ivy.array([1, 2]), 1)).tolist() == [2, 3]


def test_set_unset_and_context_restore() -> None:
    ivy.set_backend("torch")
    try:
        assert ivy.current_backend_str() == "torch"
        with ivy.using_backend("jax"):
            assert ivy.current_backend_str() == "jax"
            assert type(ivy.add(ivy.array([1.0]), 1.0).data).__module__.startswith("jax")
        assert ivy.current_backend_str() == "torch"
        import torch

        assert ivy.NativeArray is torch.Tensor
    finally:
        ivy.unset_backend()
    assert ivy.current_backend_str() == "numpy"


def test_unknown_backend_names_the_choices() -> None:
    with pytest.raises(ivy.IvyBackendException, match="choose one of numpy, torch"):
        ivy.set_backend("mxnet")
    assert ivy.current_backend_str() == "numpy"


def test_backend_errors_are_wrapped_with_the_backend_message() -> None:
    with pytest.raises(ivy.IvyBackendException, match=r"numpy: matmul: ") as info:
        ivy.matmul(ivy.ones((2, 3)), ivy.ones((2, 3)))
    assert info.value.__cause__ is not None
