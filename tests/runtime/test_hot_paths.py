"""The hot paths of issue 24's per-call targets behave as the general path, on every backend.

- ``x[q]`` is a method of exactly two parameters (``dispatch.public``: CPython inlines it);
  on NumPy it hands a key of plain values straight to the ndarray.
- ``astype(x, dtype)`` calls the native cast directly for a dtype argument the backend's
  ``target_dtype`` has answered before (``native_table``).
- ``f(x1, x2, out=o)`` of a ufunc-like function writes through the native ``out`` without
  ``with_out``'s frame (NumPy); on JAX/TensorFlow the result becomes ``o``'s data when it
  fits and goes through ``inplace.update`` (cast, broadcast, or raise before writing) when
  it does not.
- Functional-API functions are methods of ``Array`` set on the class (no ``__getattr__``).

Each test compares with what the general path (a keyword, ``copy=``, NumPy) gives, so a fast
path that skipped a check or returned the wrong object fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.array import Array
from ivycheck.runtime.dtypes import as_dtype
from ivycheck.runtime.exceptions import IvyException
from ivycheck.runtime.speedups import SPEEDUPS

from .conftest import npy


def _vector() -> ivy.Array:
    return ivy.asarray(np.arange(8, dtype=np.float32))


QUERIES = [
    3,
    -1,
    slice(1, 5),
    slice(None, None, -2),
    slice(np.int64(1), 7, np.int32(2)),  # a slice is never looked into by the fast path
    slice(-100, 100),
    slice(5, 1),  # empty
    (slice(1, 5),),
    (None, slice(2, 6)),
    (Ellipsis, 2),
    (),
]


@pytest.mark.parametrize("query", QUERIES, ids=repr)
def test_basic_index_matches_the_general_path_and_numpy(backend: str, query: object) -> None:
    x = _vector()
    fast = x[query]
    general = ivy.get_item(x, query, copy=None)  # a keyword: the general path
    expected = np.arange(8, dtype=np.float32)[query]  # type: ignore[index]
    assert type(fast) is Array or isinstance(fast, Array)
    assert fast.dtype == ivy.float32 and fast.shape == expected.shape == general.shape
    np.testing.assert_array_equal(npy(fast), expected)


def test_basic_index_is_a_view_and_an_integer_a_copy(backend: str) -> None:
    x = _vector()
    view = x[2:6]
    item = x[(1,)]
    view[0] = 50.0  # writes through to x
    x[1] = 10.0
    assert float(x[2]) == 50.0
    assert float(item) == 1.0  # a 0-d copy, as NumPy's scalar


@pytest.mark.parametrize("query", [1.5, (slice(1, 2), 0.5), "a"], ids=repr)
def test_bad_keys_raise_the_runtimes_error(backend: str, query: object) -> None:
    x = _vector()
    with pytest.raises(IvyException):
        x[query]


def test_index_of_a_tracked_view_and_with_an_array_key(backend: str) -> None:
    x = _vector()
    flipped = ivy.flip(x)  # a tracked view on JAX/TensorFlow: not ``type(x) is Array``
    np.testing.assert_array_equal(npy(flipped[1:3]), [6.0, 5.0])
    index = ivy.asarray(np.array([0, 7]))
    np.testing.assert_array_equal(npy(x[index]), [0.0, 7.0])  # advanced: the general path
    np.testing.assert_array_equal(npy(x[ivy.to_native(index)]), [0.0, 7.0])


def test_slice_with_array_bounds_and_bad_slices(backend: str) -> None:
    # ``x[a:b]`` takes the slice fast path whatever the slice holds: bounds that are 0-d
    # arrays are read by the native array as the general path reads them, and a bad bound
    # raises the runtime's error, as the general path does.
    x = _vector()
    one, five = ivy.asarray(np.int64(1)), ivy.asarray(np.int64(5))
    np.testing.assert_array_equal(npy(x[one:five]), npy(ivy.get_item(x, slice(1, 5), copy=None)))
    for bad in (slice(1.5, 3), slice(0, 4, 0), slice("a", 2)):
        with pytest.raises(IvyException) as fast:
            x[bad]
        with pytest.raises(IvyException) as general:
            ivy.get_item(x, bad, copy=None)
        assert type(fast.value) is type(general.value)


def test_slice_of_a_slice_is_a_view_of_the_base(backend: str) -> None:
    x = _vector()
    inner = x[1:7][1:5][::2]  # the fast path three times: still views of ``x``
    inner[0] = 100.0
    assert float(x[2]) == 100.0
    assert type(inner) is Array or isinstance(inner, Array)


def test_array_constructor_and_subclasses(backend: str) -> None:
    # ``Array`` has no ``__init__`` of its own (``ArrayType.__call__`` is the constructor):
    # ``Array(x)`` of an array, a native array or a list, and of a subclass without an
    # ``__init__``, as before.
    values = np.arange(4, dtype=np.float32)
    native = ivy.to_native(ivy.asarray(values))
    for made in (Array(native), Array(ivy.asarray(values)), Array([0.0, 1.0, 2.0, 3.0])):
        assert type(made) is Array and made._geometry is None
        assert ivy.to_native(made) is native or np.array_equal(npy(made), values)
    assert Array(native)._data is native

    class Sub(Array):
        __slots__ = ()

    sub = Sub(native)
    assert type(sub) is Sub and sub._data is native
    np.testing.assert_array_equal(npy(sub[1:3]), values[1:3])
    np.testing.assert_array_equal(npy(ivy.add(sub, sub)), 2 * values)
    with pytest.raises(TypeError):
        Array()  # type: ignore[call-arg]


def test_a_tracked_view_indexed_under_numpy_takes_the_general_path() -> None:
    # NumPy's ``x[a:b]`` does not test that ``x`` is exactly an ``Array``: a tracked view
    # (made on JAX, indexed once NumPy is set) has a ``__getitem__`` of its own.
    with ivy.using_backend("jax"):
        flipped = ivy.flip(_vector())
    assert type(flipped) is not Array and "__getitem__" in type(flipped).__dict__
    with ivy.using_backend("numpy"):
        np.testing.assert_array_equal(
            npy(flipped[1:3]), npy(ivy.get_item(flipped, slice(1, 3), copy=None))
        )
        np.testing.assert_array_equal(npy(flipped[1:3]), [6.0, 5.0])


@pytest.mark.parametrize("name", ["numpy", "torch"])
def test_getitem_is_a_simple_two_parameter_function_or_c(name: str) -> None:
    # BINARY_SUBSCR_GETITEM inlines only a plain function of two positional parameters. With
    # the C paths, NumPy's ``x[q]`` is ``ArrayBase``'s own slot (no method of ``Array``).
    with ivy.using_backend(name):
        method = Array.__dict__.get("__getitem__")
        if SPEEDUPS is not None and name == "numpy":
            assert method is None and Array.__getitem__ is SPEEDUPS.ArrayBase.__getitem__
            return
        assert method is not None
        code = method.__code__
        assert code.co_argcount == 2 and not code.co_kwonlyargcount
        assert not code.co_flags & 0x0C  # no *args, no **kwargs


DTYPES = ["float64", "int32", "bool", "float32", "int8", "uint8"]


@pytest.mark.parametrize("to", DTYPES)
def test_astype_by_name_dtype_and_native_dtype(backend: str, to: str) -> None:
    x = ivy.asarray(np.array([0.0, 1.5, 2.0, 3.0], dtype=np.float32))
    native = ivy.to_native(ivy.zeros(1, dtype=to)).dtype
    expected = np.array([0.0, 1.5, 2.0, 3.0], dtype=np.float32).astype(to)
    for spelling in (to, as_dtype(to), native, to):  # twice by name: then cached
        y = ivy.astype(x, spelling)
        assert y.dtype == to, spelling
        np.testing.assert_array_equal(npy(y), expected)


def test_astype_always_copies(backend: str) -> None:
    x = _vector()
    for _ in range(2):  # the second call takes the cached dtype
        y = ivy.astype(x, "float32")
        y[0] = 100.0
        assert float(x[0]) == 0.0
        z = ivy.astype(x, ivy.to_native(x).dtype)
        z[1] = 100.0
        assert float(x[1]) == 1.0


@pytest.mark.parametrize("bad", ["float", "not-a-dtype", [1], np.zeros(2)], ids=repr)
def test_astype_of_a_non_dtype_raises_every_time(backend: str, bad: object) -> None:
    x = _vector()
    for _ in range(2):
        with pytest.raises((IvyException, TypeError)):
            ivy.astype(x, bad)


def test_astype_of_a_native_subclass_takes_the_general_path() -> None:
    # The table path wraps ``ndarray.astype``'s result untested, for an ``_data`` of exactly
    # ``np.ndarray``; an ndarray subclass goes through the general path.
    class Sub(np.ndarray):
        pass

    with ivy.using_backend("numpy"):
        x = Array(np.arange(4, dtype=np.float32).view(Sub))
        ivy.astype(x, "float64")  # the dtype answered: the table path is open
        y = ivy.astype(x, "float64")
        general = ivy.astype(x, "float64", copy=True)  # a keyword: the general path
        assert type(y) is Array and type(y._data) is type(general._data) is np.ndarray
        assert y.dtype == general.dtype == ivy.float64
        np.testing.assert_array_equal(npy(y), npy(general))


def test_astype_of_a_native_argument_takes_the_general_path(backend: str) -> None:
    native = ivy.to_native(_vector())
    y = ivy.astype(native, "int32")
    assert type(y) is Array and y.dtype == ivy.int32


def test_out_of_the_same_layout(backend: str) -> None:
    a, b = _vector(), ivy.asarray(np.ones(8, np.float32))
    out = ivy.zeros((8,))
    for _ in range(2):
        assert ivy.add(a, b, out=out) is out
        assert ivy.negative(a, out=out) is out
    assert out.dtype == ivy.float32 and out.shape == (8,)
    np.testing.assert_array_equal(npy(out), -np.arange(8, dtype=np.float32))


def test_out_of_a_wider_dtype_is_cast_and_keeps_its_dtype(backend: str) -> None:
    a = _vector()
    out = ivy.zeros((8,), dtype="float64")
    assert ivy.add(a, a, out=out) is out
    assert out.dtype == ivy.float64
    np.testing.assert_array_equal(npy(out), 2 * np.arange(8))


def test_out_is_broadcast_into(backend: str) -> None:
    a = _vector()
    out = ivy.zeros((2, 8))
    assert ivy.multiply(a, a, out=out) is out
    np.testing.assert_array_equal(npy(out), np.tile(np.arange(8) ** 2, (2, 1)))


@pytest.mark.parametrize(
    ("shape", "dtype"), [((8,), "int32"), ((3,), "float32"), ((8,), "bool")], ids=str
)
def test_out_that_cannot_hold_the_result_raises_and_is_unchanged(
    backend: str, shape: tuple[int, ...], dtype: str
) -> None:
    a = _vector()
    out = ivy.zeros(shape, dtype=dtype)
    before = ivy.to_native(out)
    with pytest.raises(IvyException):
        ivy.add(a, a, out=out)
    assert ivy.to_native(out) is before or np.array_equal(npy(out), np.zeros(shape))
    np.testing.assert_array_equal(npy(out), np.zeros(shape, dtype=dtype))
    assert out.dtype == dtype


def test_out_through_a_view_writes_the_base(backend: str) -> None:
    base = ivy.zeros((8,))
    view = base[2:6]
    a = ivy.asarray(np.ones(4, np.float32))
    ivy.add(a, a, out=view)
    np.testing.assert_array_equal(npy(base), [0, 0, 2, 2, 2, 2, 0, 0])


def test_out_error_of_the_backend_is_the_runtimes(backend: str) -> None:
    a = _vector()
    b = ivy.asarray(np.ones(3, np.float32))
    out = ivy.zeros((8,))
    with pytest.raises(IvyException):
        ivy.add(a, b, out=out)
    np.testing.assert_array_equal(npy(out), np.zeros(8))


def test_numpy_read_only_out_takes_the_general_path() -> None:
    with ivy.using_backend("numpy"):
        a = _vector()
        out = ivy.zeros((8,))
        ivy.to_native(out).flags.writeable = False
        general = ivy.zeros((8,))
        ivy.to_native(general).flags.writeable = False
        ivy.add(a, a, out=out)
        ivy.add(a, a, out=general, **{})  # the same call through the general path
        np.testing.assert_array_equal(npy(out), npy(general))
        np.testing.assert_array_equal(npy(out), 2 * np.arange(8))


def test_methods_are_set_on_the_class(backend: str) -> None:
    x = _vector()
    assert "__getattr__" not in Array.__dict__  # attribute reads stay specialised
    assert Array.__dict__["reshape"] is ivy.reshape
    np.testing.assert_array_equal(npy(x.reshape((2, 4))), np.arange(8).reshape(2, 4))
    assert float(x.sum()) == 28.0
    assert x.shape == (8,) and x.size == 8  # the class's own attributes win
    with pytest.raises(AttributeError, match="no attribute 'no_such_function'"):
        x.no_such_function  # noqa: B018
    with pytest.raises(AttributeError):
        x._private  # noqa: B018
