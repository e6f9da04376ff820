"""Dtype objects, the defaults and dtype-exact creation from Python data, on the four backends."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime import dtypes


def test_dtype_is_not_a_string_but_equals_its_name() -> None:
    f32 = ivy.float32
    assert not isinstance(f32, str)
    assert f32 == "float32" and "float32" == f32  # noqa: SIM300 - the reflected comparison
    assert f32 != "float64" and f32 != ivy.float64
    assert f32 != np.float32  # a native dtype is not the runtime's dtype
    assert hash(f32) == hash("float32")
    assert {"float32": 1}[f32] == 1 and {f32: 1}["float32"] == 1
    assert (str(f32), repr(f32)) == ("float32", "ivy.float32")
    assert pickle.loads(pickle.dumps(f32)) is f32
    with pytest.raises(AttributeError):
        f32.name = "int8"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo_dtype_is_the_real_dtype_object(name: str) -> None:
    got = ivy.finfo(getattr(ivy, name)).dtype
    assert not isinstance(got, str)
    assert got == str(np.finfo(np.dtype(name)).dtype)


@pytest.mark.parametrize("name", ["int8", "int64", "uint8", "uint64"])
def test_iinfo_dtype_is_the_dtype_object(name: str) -> None:
    assert ivy.iinfo(name).dtype is getattr(ivy, name)


def test_arrays_report_dtype_objects(backend: str) -> None:
    for name in dtypes.STANDARD:
        x = ivy.zeros((2,), dtype=name)
        assert x.dtype is getattr(ivy, str(name))
        assert ivy.astype(x, ivy.complex128).dtype is ivy.complex128
        assert ivy.result_type(x, name) is x.dtype


def test_uint64_beyond_int64_keeps_its_values(backend: str) -> None:
    values = [2**63 + 5, 2**64 - 1, 0]
    got = ivy.asarray(values, dtype="uint64")
    assert got.dtype == ivy.uint64
    assert ivy.to_numpy(got).tolist() == values


def test_default_dtypes_agree_everywhere(backend: str) -> None:
    defaults = ivy.__array_namespace_info__().default_dtypes()
    assert ivy.asarray(0.5).dtype == ivy.full((), 0.5).dtype == defaults["real floating"]
    assert ivy.asarray(0j).dtype == ivy.full((), 0j).dtype == defaults["complex floating"]
    assert ivy.asarray([1]).dtype == ivy.full((), 1).dtype == defaults["integral"]
    # The standard ties the default complex dtype to the default real one.
    assert defaults["complex floating"] == dtypes.complex_dtype(defaults["real floating"])
