"""``out=`` through the hot tier (arrays only, ``out`` the one keyword: ``dispatch.out``),
and the general tier's fast loop (a plain argument beside ``out``): the same result, the same errors, ``out`` untouched on failure, on every backend.
The PyTorch check of ``out`` is memoised per signature (``check_native_out``): a second call
with another shape or dtype must not reuse the first answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import npy

A = np.array([[0.5, 1.5, -2.0], [3.0, 0.25, -1.0]], dtype=np.float32)
B = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)

# Two routes to one result: the hot tier (arrays only), the general tier's fast loop (a
# native array beside ``out``).
ROUTES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "hot": lambda a, b, out: ivy.add(a, b, out=out),
    "general": lambda a, b, out: ivy.add(a, ivy.to_native(b), out=out),
}


@pytest.mark.parametrize("route", ["hot", "general"])
def test_result_lands_in_out(backend: str, route: str) -> None:
    out = ivy.zeros((2, 3))
    ret = ROUTES[route](ivy.asarray(A), ivy.asarray(B), out)
    assert ret is out
    np.testing.assert_allclose(npy(out), A + B)
    assert out.dtype == ivy.float32


@pytest.mark.parametrize("route", ["hot", "general"])
def test_wider_out_keeps_its_dtype(backend: str, route: str) -> None:
    out = ivy.zeros((2, 3), dtype="float64")
    ROUTES[route](ivy.asarray(A), ivy.asarray(B), out)
    assert out.dtype == ivy.float64
    np.testing.assert_allclose(npy(out), (A + B).astype(np.float64))


@pytest.mark.parametrize("route", ["hot", "general"])
@pytest.mark.parametrize(
    ("shape", "dtype"), [((2, 3), "int32"), ((4, 3), "float32"), ((3,), "float32")]
)
def test_unfit_out_raises_and_stays_untouched(
    backend: str, route: str, shape: tuple[int, ...], dtype: str
) -> None:
    out = ivy.full(shape, 7, dtype=dtype)
    before = npy(out).copy()
    with pytest.raises(ivy.InplaceUpdateException):  # the same error on every backend
        ROUTES[route](ivy.asarray(A), ivy.asarray(B), out)
    np.testing.assert_array_equal(npy(out), before)
    assert out.dtype == dtype


def test_broadcast_into_larger_out(backend: str) -> None:
    out = ivy.zeros((2, 3))
    ivy.add(ivy.asarray(B[0]), ivy.asarray(B[0]), out=out)
    np.testing.assert_allclose(npy(out), np.broadcast_to(B[0] + B[0], (2, 3)))


def test_same_call_other_shapes_after_memo(backend: str) -> None:
    # The first call fits (a memoised "yes" on PyTorch); the next ones must not reuse it.
    a, b = ivy.asarray(A), ivy.asarray(B)
    ivy.multiply(a, b, out=ivy.zeros((2, 3)))
    wrong = ivy.zeros((2, 2))
    with pytest.raises(ivy.IvyException):
        ivy.multiply(a, b, out=wrong)
    np.testing.assert_array_equal(npy(wrong), np.zeros((2, 2), np.float32))
    wide = ivy.zeros((2, 3), dtype="float64")
    ivy.multiply(a, b, out=wide)
    assert wide.dtype == ivy.float64


def test_out_aliasing_an_input(backend: str) -> None:
    x = ivy.asarray(A.copy())
    assert ivy.multiply(x, x, out=x) is x
    np.testing.assert_allclose(npy(x), A * A)
    y = ivy.asarray(A.copy())
    ivy.negative(y, out=y)
    np.testing.assert_allclose(npy(y), -A)


def test_view_as_out_writes_the_base(backend: str) -> None:
    base = ivy.zeros((4, 3))
    view = base[1:3]
    ivy.add(ivy.asarray(A), ivy.asarray(B), out=view)
    expected = np.zeros((4, 3), np.float32)
    expected[1:3] = A + B
    np.testing.assert_allclose(npy(base), expected)
    flipped = ivy.flip(ivy.zeros((2, 3)), axis=0)  # a tracked view where flips copy natively
    ivy.add(ivy.asarray(A), ivy.asarray(B), out=flipped)
    np.testing.assert_allclose(npy(flipped), A + B)


def test_unary_and_comparison_out(backend: str) -> None:
    out = ivy.zeros((2, 3))
    ivy.exp(ivy.asarray(A), out=out)
    np.testing.assert_allclose(npy(out), np.exp(A), rtol=1e-6)
    mask = ivy.zeros((2, 3), dtype="bool")
    ivy.less(ivy.asarray(A), ivy.asarray(B), out=mask)
    np.testing.assert_array_equal(npy(mask), A < B)


def test_native_out_refused_on_every_route(backend: str) -> None:
    native = ivy.to_native(ivy.zeros((2, 3)))
    with pytest.raises(ivy.IvyTypeError):
        ivy.add(ivy.asarray(A), ivy.asarray(B), out=native)


def test_astype_with_a_dtype_name_or_object(backend: str) -> None:
    x = ivy.asarray(A)
    for dtype in ("float64", ivy.float64):
        y = ivy.astype(x, dtype)
        assert y.dtype == ivy.float64
        np.testing.assert_allclose(npy(y), A.astype(np.float64))
    assert ivy.astype(x, "int32").dtype == ivy.int32


def test_astype_dtype_arguments_remembered_and_refused(backend: str) -> None:
    # ``target_dtype`` keeps the native dtype per argument: a name, a ``Dtype``, a native
    # dtype give the same; a name that is no dtype raises every time (nothing is kept).
    x = ivy.asarray(A)
    native = ivy.to_native(ivy.zeros(1, dtype="int16")).dtype
    for dtype in ("int16", ivy.int16, native, "int16"):
        assert ivy.astype(x, dtype).dtype == ivy.int16
    for _ in range(2):
        with pytest.raises(ivy.IvyException):
            ivy.astype(x, "float33")
    assert ivy.astype(x, "bool").dtype == ivy.bool


def test_read_only_out_is_rebound(backend: str) -> None:
    # NumPy's ufuncs take ``out`` straight away; one that cannot be written (a read-only
    # broadcast) makes the call compute and write as ``inplace_update`` does.
    out = ivy.zeros((2, 3))
    if backend == "numpy":
        out = ivy.Array(np.broadcast_to(np.zeros(3, np.float32), (2, 3)))
    assert ivy.add(ivy.asarray(A), ivy.asarray(B), out=out) is out
    np.testing.assert_allclose(npy(out), A + B)
    assert out.dtype == ivy.float32


def test_memo_tells_unary_from_binary_and_shapes(backend: str) -> None:
    # PyTorch's quick key (one or two tensors, no keyword): the same function and ``out``
    # with other argument shapes or dtypes asks again.
    out = ivy.zeros((2, 3))
    ivy.add(ivy.asarray(A), ivy.asarray(B), out=out)
    with pytest.raises(ivy.IvyException):
        ivy.add(ivy.asarray(np.ones((4, 3), np.float32)), ivy.asarray(B[:1]), out=out)
    np.testing.assert_allclose(npy(out), A + B)
    ivy.add(ivy.asarray(B[:1]), ivy.asarray(A), out=out)  # broadcast: written, not native
    np.testing.assert_allclose(npy(out), A + B[:1])
    ivy.add(ivy.asarray(A.astype(np.float64)), ivy.asarray(B.astype(np.float64)), out=out)
    assert out.dtype == ivy.float32
    np.testing.assert_allclose(npy(out), A + B)
    ints = ivy.zeros((2, 3), dtype="int32")
    with pytest.raises(ivy.IvyException):
        ivy.add(ivy.asarray(A), ivy.asarray(B), out=ints)
    np.testing.assert_array_equal(npy(ints), np.zeros((2, 3), np.int32))


def test_getitem_is_the_public_function(backend: str) -> None:
    # ``x[q]`` is a two-parameter method of the same closure as ``ivy.get_item`` (CPython
    # inlines such a ``__getitem__``); it gives what the function gives.
    x = ivy.asarray(A)
    for query in (slice(1, 2), 0, (Ellipsis, slice(None, None, -1)), (0, 1)):
        np.testing.assert_array_equal(npy(x[query]), npy(ivy.get_item(x, query)))
    np.testing.assert_array_equal(npy(x[1:2]), A[1:2])
    np.testing.assert_array_equal(npy(x[0]), A[0])
    np.testing.assert_array_equal(npy(x[..., ::-1]), A[..., ::-1])
    view = x[0]
    x[0, 1] = 9.0  # the view sees the write, on every backend
    assert float(view[1]) == 9.0


def test_torch_out_calls_the_native_function_when_it_is_the_same() -> None:
    # ``check_native_out`` names what to call: ``torch.add`` for two tensors of one dtype;
    # the backend's ``add`` for wide unsigned ones (int64 bits, modulo 2**64) and mixed ones.
    torch = pytest.importorskip("torch")
    from ivycheck.runtime.backends.torch import elementwise, primitives

    f32 = torch.ones(3)
    assert (
        primitives.check_native_out(elementwise.add, [f32, f32], {}, out=torch.ones(3)) is torch.add
    )
    assert primitives.check_native_out(elementwise.less, [f32, f32], {}, out=torch.ones(3)) is None
    big = torch.tensor([2**32 - 1, 5, 0], dtype=torch.uint32)
    out_u = torch.zeros(3, dtype=torch.uint32)
    assert primitives.check_native_out(elementwise.add, [big, big], {}, out=out_u) in (
        elementwise.add,
        None,
    )
    with ivy.using_backend("torch"):
        out = ivy.zeros((3,), dtype="uint32")
        ivy.add(ivy.Array(big), ivy.Array(big), out=out)
        np.testing.assert_array_equal(npy(out), np.array([2**32 - 1, 5, 0], np.uint32) * 2)
        mask = ivy.zeros((3,), dtype="bool")
        ivy.less(ivy.Array(f32), ivy.Array(f32 + 1), out=mask)
        assert npy(mask).all()


def test_torch_pair_check_answers_as_the_general_check() -> None:
    # ``native_out_for_pair`` (the hot path's positional check) gives what
    # ``check_native_out`` gives for the same two tensors and ``out``, whichever is asked
    # first: a fit, another shape, another dtype, a broadcast, a tensor subclass.
    torch = pytest.importorskip("torch")
    from ivycheck.runtime.backends.torch import elementwise, primitives

    class Sub(torch.Tensor):
        pass

    f32, f64 = torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64)
    cases = [
        (elementwise.add, f32, f32, torch.zeros(2, 3)),
        (elementwise.add, f32, f32, torch.zeros(3, 2)),
        (elementwise.add, f32, f32, torch.zeros(2, 3, dtype=torch.float64)),
        (elementwise.add, f64, f64, torch.zeros(2, 3)),
        (elementwise.add, f32[:1], f32, torch.zeros(2, 3)),
        (elementwise.add, f32, f32, torch.zeros(4, 2, 3)),
        (elementwise.less, f32, f32, torch.zeros(2, 3, dtype=torch.bool)),
        (elementwise.multiply, f32.as_subclass(Sub), f32, torch.zeros(2, 3)),
    ]
    general = [primitives.check_native_out(fn, [a, b], {}, out=o) for fn, a, b, o in cases]
    assert general[0] is torch.add and general[1] is None and general[2] is None
    for pair_first in (False, True):
        primitives._FITS.clear()
        for (fn, a, b, o), expected in zip(cases, general, strict=True):
            if pair_first:
                assert primitives.native_out_for_pair(fn, a, b, o) is expected
                assert primitives.check_native_out(fn, [a, b], {}, out=o) is expected
            else:
                assert primitives.check_native_out(fn, [a, b], {}, out=o) is expected
                assert primitives.native_out_for_pair(fn, a, b, o) is expected


def test_same_layout(backend: str) -> None:
    from ivycheck.runtime.backend_state import prims

    p = prims()
    a = ivy.to_native(ivy.zeros((2, 3)))
    assert p.same_layout(a, ivy.to_native(ivy.ones((2, 3))))
    assert not p.same_layout(a, ivy.to_native(ivy.zeros((3, 2))))
    assert not p.same_layout(a, ivy.to_native(ivy.zeros((2, 3), dtype="float64")))
    assert not p.same_layout(a, ivy.to_native(ivy.zeros((6,))))
