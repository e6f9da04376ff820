"""The wrapper's fast paths behave exactly like its general path, on every backend.

A call whose arguments are arrays, plain values (scalars, ``None``, slices, ``...``) and flat
tuples/lists of those, without ``out``/``copy``, skips the general machinery of
``dispatch.build.build`` (and, for one array plus one plain argument, even the wrapper frame).
These tests take both routes -- the plain call, and the same call made to go the general way
(``out=``, ``copy=``, an array inside the argument) -- and NumPy as the oracle: views stay
views, dtypes are the standard's, errors are the runtime's, a surplus positional argument is
refused.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.backends.torch import primitives as torch_primitives
from ivycheck.runtime.dispatch.build import array_positions as _array_positions
from ivycheck.runtime.dispatch.registry import REGISTRY
from ivycheck.runtime.dtypes import as_dtype
from ivycheck.runtime.exceptions import IvyBackendException, IvyException, IvyTypeError
from ivycheck.runtime.functional.creation import default_dtype

from .conftest import npy


def _vector() -> ivy.Array:
    return ivy.asarray(np.arange(8, dtype=np.float32))


def test_slice_and_reshape_are_views_written_through(backend: str) -> None:
    x = _vector()
    ivy.reshape(x, (2, 4))[1, 0] = 40.0  # plain tuple: the fast path
    x[1:5][0] = 10.0  # one plain argument: the public function's own path
    ivy.permute_dims(ivy.reshape(x, [2, 4]), (1, 0))[3, 1] = 70.0  # list and tuple
    expected = np.arange(8, dtype=np.float32)
    expected[[1, 4, 7]] = [10.0, 40.0, 70.0]
    np.testing.assert_array_equal(npy(x), expected)


def test_an_array_inside_a_tuple_is_unwrapped(backend: str) -> None:
    x = _vector()
    two = ivy.asarray(2)
    np.testing.assert_array_equal(npy(ivy.reshape(x, (two, 4))), npy(ivy.reshape(x, (2, 4))))
    np.testing.assert_array_equal(npy(ivy.concat([x, x])), np.tile(np.arange(8), 2))


def test_integer_index_of_a_vector_is_a_zero_d_copy(backend: str) -> None:
    x = _vector()
    item = x[3]
    assert isinstance(item, ivy.Array) and item.shape == () and item.dtype == ivy.float32
    x[3] = 99.0
    assert float(item) == 3.0  # NumPy gives a scalar there: a copy


def test_out_and_copy_take_the_general_path(backend: str) -> None:
    x = _vector()
    out = ivy.zeros((2, 4))
    assert ivy.reshape(x, (2, 4), out=out) is out
    np.testing.assert_array_equal(npy(out), np.arange(8).reshape(2, 4))
    copied = ivy.reshape(x, (2, 4), copy=True)
    copied[0, 0] = -1.0
    assert float(x[0]) == 0.0


def test_a_surplus_positional_argument_is_refused_and_writes_nothing(backend: str) -> None:
    x, y, o = _vector(), _vector(), ivy.zeros((8,))
    with pytest.raises(IvyException):
        ivy.add(x, y, o)
    with pytest.raises(IvyException):
        ivy.reshape(x, (2, 4), o)
    np.testing.assert_array_equal(npy(o), np.zeros(8))


def test_errors_of_the_fast_paths_are_the_runtimes(backend: str) -> None:
    x = _vector()
    with pytest.raises(IndexError) as caught:
        x[10]
    assert isinstance(caught.value, IvyBackendException)
    with pytest.raises(IvyBackendException):
        ivy.reshape(x, (3, 3))


def test_creation_dtypes(backend: str) -> None:
    assert ivy.zeros((8,)).dtype == ivy.float32
    assert ivy.ones(3).dtype == ivy.float32
    assert ivy.eye(3).dtype == ivy.float32
    assert ivy.zeros((2,), dtype=ivy.float64).dtype == ivy.float64
    assert ivy.zeros((2,), dtype="int32").dtype == ivy.int32
    assert ivy.zeros((2,), dtype=ivy.int8, device="cpu").dtype == ivy.int8
    assert ivy.zeros_like(ivy.asarray([1, 2], dtype=ivy.int16)).dtype == ivy.int16
    assert ivy.arange(8).dtype == ivy.int64
    assert ivy.arange(0, 4, 0.5).dtype == ivy.float32
    assert ivy.full((2,), True).dtype == ivy.bool
    assert ivy.full((2,), 2).dtype == ivy.int64
    assert ivy.full((2,), 2.0).dtype == ivy.float32
    for k in (-1, 0, 2):
        for dtype in (ivy.bool, ivy.int32, ivy.uint32, ivy.float32, ivy.complex64):
            got = ivy.eye(3, 4, k=k, dtype=dtype)
            assert got.dtype == dtype
            np.testing.assert_array_equal(npy(got), np.eye(3, 4, k=k, dtype=str(dtype)))


def test_promotion_of_mixed_and_equal_dtypes(backend: str) -> None:
    f32, f64 = ivy.asarray([1.0, 2.0]), ivy.asarray([1.0, 2.0], dtype=ivy.float64)
    i32 = ivy.asarray([1, 2], dtype=ivy.int32)
    assert ivy.add(f32, f32).dtype == ivy.float32
    assert ivy.add(f32, f64).dtype == ivy.float64
    assert ivy.add(i32, ivy.asarray(1, dtype=ivy.int64)).dtype == ivy.int64  # 0-d is not weak
    assert ivy.concat([f32, f32]).dtype == ivy.float32
    assert ivy.concat([f32, f64]).dtype == ivy.float64
    assert ivy.stack([i32, ivy.asarray([3, 4], dtype=ivy.int8)]).dtype == ivy.int32
    assert ivy.matmul(ivy.eye(2), ivy.eye(2, dtype=ivy.float64)).dtype == ivy.float64


def test_single_array_functions_take_their_array_first() -> None:
    # The public function's own paths pass the first one, two or three arguments as the
    # arrays.
    for name, api in REGISTRY.items():
        positions = _array_positions(api.__ivy_raw__)  # type: ignore[attr-defined]
        assert positions in ((), (0,), (0, 1), (0, 1, 2)) or len(positions) > 3, name


def test_as_dtype_of_native_dtypes_and_failures() -> None:
    import torch

    assert as_dtype(np.dtype("float32")) is ivy.float32
    assert as_dtype(np.dtype("float32")) is ivy.float32  # the remembered answer
    assert as_dtype(torch.int16) is ivy.int16
    assert as_dtype(float) is ivy.float64
    for bad in (np.dtype("datetime64[s]"), [1], "float8"):
        with pytest.raises(IvyTypeError):
            as_dtype(bad)


def test_default_dtype_depends_on_the_value_types() -> None:
    assert default_dtype(True, None) == ivy.bool
    assert default_dtype(1, True) == ivy.int64
    assert default_dtype(1, 2.0) == ivy.float32
    assert default_dtype(1, 2j) == ivy.complex64
    assert default_dtype(np.float64(1.0)) == ivy.float32
    assert default_dtype(None) == ivy.int64
    assert default_dtype(True, None) == ivy.bool  # the remembered answer


def test_torch_shares_memory() -> None:
    import torch

    base = torch.arange(6.0)
    view, sibling = base[1:], base.reshape(2, 3)
    assert torch_primitives.shares_memory(view, base)
    assert torch_primitives.shares_memory(view, sibling)
    assert torch_primitives.shares_memory(base, base)
    assert not torch_primitives.shares_memory(base.clone(), base)
    assert not torch_primitives.shares_memory(base[:0], base)
    from_numpy = np.arange(3.0)
    assert torch_primitives.shares_memory(
        torch.from_numpy(from_numpy), torch.from_numpy(from_numpy)
    )


def test_torch_is_native_view_answers_only_for_certain_views() -> None:
    import torch

    base = torch.arange(6.0)
    view = base[1:]
    assert torch_primitives.is_native_view(view, base)
    assert torch_primitives.is_native_view(view.reshape(5), view)  # a view of a view
    assert not torch_primitives.is_native_view(base[:0], base)  # empty: "ask shares_memory"
    assert not torch_primitives.is_native_view(base[2], base)  # 0-d: may be a copy in NumPy
    assert not torch_primitives.is_native_view(base[1:2], base)  # one element: ask
    assert not torch_primitives.is_native_view(base.clone(), base)
    assert not torch_primitives.is_native_view(torch.arange(6.0)[1:], base)
    assert not torch_primitives.is_native_view((view,), base)


def test_sequences_of_arrays_in_lists_tuples_and_mixed(backend: str) -> None:
    x = _vector()
    rows = np.stack([np.arange(8), np.arange(8)]).astype(np.float32)
    np.testing.assert_array_equal(npy(ivy.stack((x, x))), rows)  # a tuple
    np.testing.assert_array_equal(npy(ivy.stack([x, x])), rows)  # a list
    native = ivy.to_native(x)
    np.testing.assert_array_equal(npy(ivy.stack([x, native])), rows)  # mixed: general
    view = ivy.reshape(x, (2, 4))[0]  # a tracked view on backends without views
    np.testing.assert_array_equal(npy(ivy.concat([view, view])), np.tile(np.arange(4), 2))
    assert ivy.concat([x, x], axis=0).shape == (16,)  # a keyword: general
    with pytest.raises(IvyBackendException):
        ivy.concat([x, ivy.reshape(x, (2, 4))])  # the backend's error, the runtime's type


def test_creation_with_plain_positional_arguments(backend: str) -> None:
    np.testing.assert_array_equal(npy(ivy.full((2, 3), 2.5)), np.full((2, 3), 2.5, np.float32))
    assert ivy.full([2], 7).dtype == ivy.int64  # a list shape, an int fill
    np.testing.assert_array_equal(npy(ivy.arange(2, 6)), np.arange(2, 6))
    assert ivy.arange(2, 6.0).dtype == ivy.float32
    assert ivy.eye(2, 3).shape == (2, 3) and ivy.eye(2, 3).dtype == ivy.float32
    assert ivy.zeros(3).shape == (3,) and ivy.zeros([1, 2]).shape == (1, 2)
    assert ivy.zeros(shape=(2,)).dtype == ivy.float32  # by keyword: general
    assert ivy.zeros((ivy.asarray(2), 3)).shape == (2, 3)  # an array in the shape: general
    with pytest.raises(IvyException):
        ivy.zeros((2,), ivy.float64)  # dtype is keyword-only: a surplus positional
    with pytest.raises(IvyException):
        ivy.full((2,), 1.0, ivy.float64)


_NO_ARRAY_CALLS = [
    ("zeros", (3,)), ("zeros", ([2, 3],)), ("ones", ((0,),)), ("full", ((2,), True)),
    ("full", (3, 1j)), ("full", ([2], 7)), ("arange", (5,)), ("arange", (1, 5)),
    ("arange", (0.5,)), ("arange", (5, 1)), ("arange", (True,)), ("eye", (2, 3)),
    ("fftfreq", (8, 0.1)), ("rfftfreq", (8,)), ("asarray", ([1, 2],)), ("linspace", (0, 1)),
    ("zeros", (np.int64(3),)), ("full", ((2,), np.float64(1.5))), ("concat", ((),)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "args"), _NO_ARRAY_CALLS)
def test_no_array_functions_agree_with_the_general_path(
    backend: str, name: str, args: tuple
) -> None:
    """The public function's own path for functions of no array parameter gives what the
    built wrapper's general path gives: value, dtype, or the same exception type."""
    from ivycheck.runtime.backend_handler import state

    def outcome(function: object) -> object:
        try:
            result = function(*args)  # type: ignore[operator]
        except Exception as e:  # noqa: BLE001 - the exception type is the outcome
            return type(e)
        return str(result.dtype), npy(result).tolist()

    assert outcome(REGISTRY[name]) == outcome(state.tables[backend][name].general)


def test_sequences_of_arrays_agree_with_the_general_path(backend: str) -> None:
    from ivycheck.runtime.backend_handler import state

    x, y = _vector(), ivy.asarray([1, 2], dtype=ivy.int8)
    for name, args in (("concat", ([x, x],)), ("stack", ((y, y),)), ("concat", ([y, x[:2]],))):
        general = state.tables[backend][name].general(*args)
        fast = REGISTRY[name](*args)
        assert str(fast.dtype) == str(general.dtype)
        np.testing.assert_array_equal(npy(fast), npy(general))
