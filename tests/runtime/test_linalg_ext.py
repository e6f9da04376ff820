"""The ``linalg`` extension on the four backends, NumPy's ``numpy.linalg`` as the oracle:
values, dtypes and shapes; named tuple results; ``out`` keyword-only and dtype-keeping;
``diagonal`` a view that writes through; the shared objects with the main namespace; the
namespace still dispatching after ``set_backend``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivycheck.runtime as ivy
from ivycheck.runtime import linalg

# 5 draws (10 before every function got fixed oracle cases on every backend in
# test_every_function.py; JAX compiles each drawn shape, the most of make test's time here).
FAST = settings(  # the backend fixture holds for every example: it only selects the backend
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _well_conditioned(n: int, batch: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    """Random matrices plus ``n`` on the diagonal: invertible, far from singular."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (*batch, n, n)) + n * np.eye(n)
    return a.astype(dtype)


def _spd(n: int, batch: tuple[int, ...], dtype: str, seed: int) -> np.ndarray:
    a = _well_conditioned(n, batch, "float64", seed)
    return (a @ np.swapaxes(a, -1, -2)).astype(dtype)


matrices = st.builds(
    _well_conditioned,
    n=st.integers(1, 4),
    batch=st.sampled_from([(), (2,), (3, 1)]),
    dtype=st.sampled_from(["float32", "float64"]),
    seed=st.integers(0, 2**16),
)
symmetric = st.builds(
    _spd,
    n=st.integers(1, 4),
    batch=st.sampled_from([(), (2,)]),
    dtype=st.sampled_from(["float32", "float64"]),
    seed=st.integers(0, 2**16),
)


def _close(got: Any, expected: Any) -> None:
    assert isinstance(got, ivy.Array)
    expected = np.asarray(expected)
    assert str(got.dtype) == str(expected.dtype), (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    tol = 2e-3 if expected.dtype in (np.float32, np.complex64) else 1e-8
    np.testing.assert_allclose(ivy.to_numpy(got), expected, rtol=tol, atol=tol)


@FAST
@given(a=matrices)
def test_unary_matrix_functions_match_numpy(backend: str, a: np.ndarray) -> None:
    x = ivy.asarray(a)
    _close(linalg.det(x), np.linalg.det(a))
    _close(linalg.inv(x), np.linalg.inv(a))
    _close(linalg.svdvals(x), np.linalg.svdvals(a))
    _close(linalg.pinv(x), np.linalg.pinv(a, rtol=None))
    _close(linalg.matrix_rank(x), np.linalg.matrix_rank(a, rtol=None).astype(np.int64))
    for n in (-2, 0, 3):
        _close(linalg.matrix_power(x, n), np.linalg.matrix_power(a, n))
    for ord_ in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        _close(linalg.matrix_norm(x, ord=ord_), np.linalg.matrix_norm(a, ord=ord_))
    _close(linalg.matrix_norm(x, keepdims=True), np.linalg.matrix_norm(a, keepdims=True))
    sign, logabsdet = linalg.slogdet(x)
    expected = np.linalg.slogdet(a)
    _close(sign, expected.sign)
    _close(logabsdet, expected.logabsdet)


@FAST
@given(a=symmetric)
def test_symmetric_decompositions_match_numpy(backend: str, a: np.ndarray) -> None:
    x = ivy.asarray(a)
    result = linalg.eigh(x)
    assert type(result) is linalg.EighResult
    _close(result.eigenvalues, np.linalg.eigvalsh(a))
    w, v = (ivy.to_numpy(r) for r in result)
    _close(ivy.asarray(v @ (w[..., None] * np.swapaxes(v, -1, -2))), a)
    _close(linalg.eigvalsh(x), np.linalg.eigvalsh(a))
    _close(linalg.cholesky(x), np.linalg.cholesky(a))


@FAST
@given(a=matrices, full=st.booleans(), mode=st.sampled_from(["reduced", "complete"]))
def test_factorisations_reconstruct_the_input(
    backend: str, a: np.ndarray, full: bool, mode: str
) -> None:
    x = ivy.asarray(a[..., :, :-1] if a.shape[-1] > 1 else a)  # non-square as well
    m = ivy.to_numpy(x)
    u, s, vh = linalg.svd(x, full_matrices=full)
    k = s.shape[-1]
    assert type(linalg.svd(x)) is linalg.SVDResult
    rebuilt = (
        ivy.to_numpy(u)[..., :, :k] * ivy.to_numpy(s)[..., None, :] @ ivy.to_numpy(vh)[..., :k, :]
    )
    _close(ivy.asarray(rebuilt), m)
    q, r = linalg.qr(x, mode=mode)
    expected_q, expected_r = np.linalg.qr(m, mode=mode)
    assert q.shape == expected_q.shape and r.shape == expected_r.shape
    _close(ivy.asarray(ivy.to_numpy(q) @ ivy.to_numpy(r)), m)


@FAST
@given(a=matrices, k=st.integers(1, 3), vector=st.booleans())
def test_solve_matches_numpy(backend: str, a: np.ndarray, k: int, vector: bool) -> None:
    n = a.shape[-1]
    b = np.linspace(-2, 2, n if vector else n * k, dtype=a.dtype).reshape(
        (n,) if vector else (n, k)
    )
    _close(linalg.solve(ivy.asarray(a), ivy.asarray(b)), np.linalg.solve(a, b))


def test_solve_reads_x2_of_the_batch_shape_as_matrices(backend: str) -> None:
    """``x2`` of shape ``x1.shape[:-1]`` is a matrix here (PyTorch alone would read a batch
    of vectors)."""
    a = _well_conditioned(2, (2,), "float64", 0)
    b = np.array([[1.0, 2.0], [3.0, 4.0]])
    _close(linalg.solve(ivy.asarray(a), ivy.asarray(b)), np.linalg.solve(a, b[None]))


PAIRS = [
    ("int8", "int8"),
    ("int8", "int32"),
    ("int32", "int64"),
    ("uint8", "uint8"),
    ("uint8", "uint16"),
    ("float32", "float32"),
    ("float32", "float64"),
]


@FAST
@given(
    pair=st.sampled_from(PAIRS),
    batch=st.sampled_from([(), (2,), (2, 1)]),
    offset=st.integers(-3, 3),
)
def test_products_trace_diagonal_match_numpy(
    backend: str, pair: tuple[str, str], batch: tuple[int, ...], offset: int
) -> None:
    d1, d2 = pair
    dtype = np.result_type(d1, d2)  # same-kind pairs: NumPy's promotion is the standard's
    a = (np.arange(3 * int(np.prod(batch, dtype=int)) * 3) % 7).reshape((*batch, 3, 3))
    x1, x2 = a.astype(d1), (a[..., ::-1] + 1).astype(d2)
    _close(linalg.cross(ivy.asarray(x1), ivy.asarray(x2)), np.linalg.cross(x1, x2).astype(dtype))
    _close(
        linalg.cross(ivy.asarray(x1), ivy.asarray(x2), axis=-2),
        np.linalg.cross(x1, x2, axis=-2).astype(dtype),
    )
    v1, v2 = x1.reshape(-1)[:4], x2.reshape(-1)[:5]
    _close(linalg.outer(ivy.asarray(v1), ivy.asarray(v2)), np.outer(v1, v2).astype(dtype))
    _close(linalg.diagonal(ivy.asarray(x1), offset=offset), np.linalg.diagonal(x1, offset=offset))
    _close(linalg.trace(ivy.asarray(x1), offset=offset), np.linalg.trace(x1, offset=offset))
    _close(
        linalg.trace(ivy.asarray(x1), offset=offset, dtype=ivy.float64),
        np.linalg.trace(x1, offset=offset, dtype=np.float64),
    )


@FAST
@given(
    a=hnp.arrays(
        st.sampled_from([np.float32, np.float64]),
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
        elements=st.floats(-10, 10, width=32, allow_subnormal=False),  # XLA/TF flush them
    ),
    ord_=st.sampled_from([2, 1, 0, 3, -1, np.inf, -np.inf]),
    keepdims=st.booleans(),
    data=st.data(),
)
def test_vector_norm_matches_numpy(
    backend: str, a: np.ndarray, ord_: float, keepdims: bool, data: st.DataObject
) -> None:
    axis = data.draw(
        st.none()
        | st.integers(-a.ndim, a.ndim - 1)
        | st.just(tuple(range(a.ndim)))
        | st.just(()),  # no axis: each element's own norm (PyTorch read it as all axes)
        "axis",
    )
    if ord_ in (-1, -np.inf) and not np.all(a):
        a = a + 20  # negative orders of a zero are 0 on some backends, NaN warnings on NumPy
    got = linalg.vector_norm(ivy.asarray(a), axis=axis, keepdims=keepdims, ord=ord_)
    _close(got, np.linalg.vector_norm(a, axis=axis, keepdims=keepdims, ord=ord_))


def test_complex_norms_and_logabsdet_are_real(backend: str) -> None:
    z = ivy.asarray(np.array([[3 + 4j, 0], [0, 1j]], dtype=np.complex64))
    sign, logabsdet = linalg.slogdet(z)
    expected = np.linalg.slogdet(ivy.to_numpy(z))
    _close(sign, expected.sign)
    _close(logabsdet, expected.logabsdet)
    _close(linalg.vector_norm(z), np.linalg.vector_norm(ivy.to_numpy(z)))
    _close(linalg.matrix_norm(z), np.linalg.matrix_norm(ivy.to_numpy(z)))


def test_diagonal_is_a_view_that_writes_through(backend: str) -> None:
    x = ivy.zeros((3, 4))
    d = linalg.diagonal(x, offset=1)
    d[0] = 5.0
    assert ivy.to_numpy(x)[0, 1] == 5.0
    c = linalg.diagonal(x, copy=True)
    c[0] = 7.0
    assert ivy.to_numpy(x)[0, 0] == 0.0


def test_out_is_keyword_only_and_keeps_its_dtype(backend: str) -> None:
    a = ivy.asarray(_well_conditioned(3, (), "float32", 1))
    out = ivy.zeros((3, 3), dtype="float64")
    assert linalg.inv(a, out=out) is out
    assert out.dtype == ivy.float64
    np.testing.assert_allclose(ivy.to_numpy(out), np.linalg.inv(ivy.to_numpy(a)), rtol=1e-4)
    with pytest.raises(TypeError):
        linalg.inv(a, out)  # type: ignore[call-arg]
    with pytest.raises(ivy.InplaceUpdateException):
        linalg.inv(a, out=ivy.zeros((2, 2)))
    assert np.all(ivy.to_numpy(out) != 0)  # the failed update left ``out`` as it was


def test_shared_functions_are_the_main_namespace_objects() -> None:
    for name in ("matmul", "matrix_transpose", "tensordot", "vecdot", "cholesky"):
        assert getattr(linalg, name) is getattr(ivy, name)
    assert ivy.linalg is linalg


def test_namespace_follows_set_backend() -> None:
    det = ivy.linalg.det
    for name in ("torch", "numpy", "jax"):
        with ivy.using_backend(name):
            assert ivy.linalg.det is det
            got = ivy.linalg.det(ivy.asarray(np.eye(2)))
            assert name == ivy.current_backend().primitives.NAME
            assert isinstance(ivy.to_native(got), ivy.current_backend().primitives.NATIVE_TYPES)
