"""The ``linalg`` extension of the Array API 2023.12: this module is ``ivy.linalg`` (``xp.linalg``).

Each function is declared once with Ivy's decorators and dispatches to the backend in use
(``backends/<name>/linalg_ext.py``), as the main namespace does. ``matmul``,
``matrix_transpose``, ``tensordot``, ``vecdot`` and ``cholesky`` *are* the main namespace's
functions (the same objects): the standard requires the extension's versions to behave
identically, and one object cannot drift from the other. The other names are only here, as in
the standard (``ivy.linalg.det``, no ``ivy.det``). Functions the standard specifies as
returning a tuple return the named tuples below, of arrays, built here from the backend's
native results (the built wrapper converts arrays, not the tuple type). They take no ``out``:
there is no single array to write into.
"""

# mypy: disable-error-code="no-any-return"
# (bodies return the backend's native result; the built wrapper makes it an Array)
# ruff: noqa: UP045  (IVY009 asks for ``Optional[Array]``, the form Ivy's docs use)
from __future__ import annotations

from typing import Any, Literal, NamedTuple, Optional

from ivycheck.runtime.array import Array
from ivycheck.runtime.backend_handler import current_backend
from ivycheck.runtime.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_view,
    inputs_to_ivy_arrays,
    to_native_arrays_and_back,
)
from ivycheck.runtime.functional.general import asarray
from ivycheck.runtime.functional.linear_algebra import (
    cholesky,
    matmul,
    matrix_transpose,
    tensordot,
    vecdot,
)
from ivycheck.runtime.native import NativeArray

__all__ = [
    "EigResult",
    "EighResult",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]


class EigResult(NamedTuple):
    """``eig``: the eigenvalues and the eigenvectors as columns, complex (2025.12)."""

    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    """``eigh``: eigenvalues in ascending order, and the eigenvectors as columns."""

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """``qr``: the orthonormal factor ``Q`` and the upper triangular factor ``R``."""

    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    """``slogdet``: the sign (a unit complex number for complex input) and log|det|."""

    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    """``svd``: ``U``, the singular values ``S`` (descending) and ``Vh`` (not ``V``)."""

    U: Array
    S: Array
    Vh: Array


def _natives(x: Any) -> Any:
    return asarray(x).data


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def cross(
    x1: Array | NativeArray,
    x2: Array | NativeArray,
    /,
    *,
    axis: int = -1,
    out: Optional[Array] = None,
) -> Array:
    """Cross product of 3-vectors along ``axis`` (the other axes broadcast)."""
    return current_backend(x1, x2).cross(x1, x2, axis=axis, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def det(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Determinant of each square matrix in the stack."""
    return current_backend(x).det(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_view
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def diagonal(
    x: Array | NativeArray,
    /,
    *,
    offset: int = 0,
    copy: Optional[bool] = None,
    out: Optional[Array] = None,
) -> Array:
    """The ``offset`` diagonal of each matrix: a view of ``x`` (writes go through)."""
    return current_backend(x).diagonal(x, offset=offset, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def eig(x: Array | NativeArray, /) -> EigResult:
    """Eigen-decomposition of general square matrices (2025.12): complex eigenvalues and
    eigenvectors of ``x``'s precision (float32 gives complex64), in the backend's order."""
    return EigResult(*(Array(n) for n in current_backend(x).eig(_natives(x))))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def eigvals(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Eigenvalues of general square matrices (2025.12), complex of ``x``'s precision."""
    return current_backend(x).eigvals(x, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def eigh(x: Array | NativeArray, /) -> EighResult:
    """Eigen-decomposition of symmetric / Hermitian matrices."""
    return EighResult(*(Array(n) for n in current_backend(x).eigh(_natives(x))))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def eigvalsh(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Eigenvalues of symmetric / Hermitian matrices, ascending, real-valued."""
    return current_backend(x).eigvalsh(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def inv(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Inverse of each square matrix."""
    return current_backend(x).inv(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def matrix_norm(
    x: Array | NativeArray,
    /,
    *,
    keepdims: bool = False,
    ord: int | float | Literal["fro", "nuc"] | None = "fro",
    out: Optional[Array] = None,
) -> Array:
    """Matrix norm over the last two axes; real-valued (float32 for complex64)."""
    return current_backend(x).matrix_norm(x, keepdims=keepdims, ord=ord, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def matrix_power(x: Array | NativeArray, n: int, /, *, out: Optional[Array] = None) -> Array:
    """``x`` multiplied by itself ``n`` times (the inverse's power for ``n < 0``)."""
    return current_backend(x).matrix_power(x, n, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def matrix_rank(
    x: Array | NativeArray,
    /,
    *,
    rtol: float | Array | NativeArray | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Number of singular values above ``rtol`` times the largest (default integer dtype)."""
    return current_backend(x).matrix_rank(x, rtol=rtol, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def outer(
    x1: Array | NativeArray, x2: Array | NativeArray, /, *, out: Optional[Array] = None
) -> Array:
    """Outer product of two vectors, promoted as the standard says."""
    return current_backend(x1, x2).outer(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def pinv(
    x: Array | NativeArray,
    /,
    *,
    rtol: float | Array | NativeArray | None = None,
    out: Optional[Array] = None,
) -> Array:
    """Moore-Penrose pseudo-inverse; singular values at most ``rtol`` times the largest are
    dropped (default: ``max(M, N)`` times the dtype's epsilon)."""
    return current_backend(x).pinv(x, rtol=rtol, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def qr(x: Array | NativeArray, /, *, mode: Literal["reduced", "complete"] = "reduced") -> QRResult:
    """QR decomposition of each matrix."""
    return QRResult(*(Array(n) for n in current_backend(x).qr(_natives(x), mode=mode)))


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def slogdet(x: Array | NativeArray, /) -> SlogdetResult:
    """Sign and natural log of the absolute determinant (``sign`` 0, ``-inf`` if singular)."""
    return SlogdetResult(*(Array(n) for n in current_backend(x).slogdet(_natives(x))))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def solve(
    x1: Array | NativeArray, x2: Array | NativeArray, /, *, out: Optional[Array] = None
) -> Array:
    """Solve ``x1 @ X = x2``; ``x2`` of one axis is a vector, otherwise a stack of matrices
    (batch axes broadcast), as the standard says."""
    return current_backend(x1, x2).solve(x1, x2, out=out)


@handle_exceptions
@handle_nestable
@inputs_to_ivy_arrays
@handle_array_function
def svd(x: Array | NativeArray, /, *, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition ``x = U @ diag(S) @ Vh``."""
    natives = current_backend(x).svd(_natives(x), full_matrices=full_matrices)
    return SVDResult(*(Array(n) for n in natives))


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def svdvals(x: Array | NativeArray, /, *, out: Optional[Array] = None) -> Array:
    """Singular values, descending, real-valued."""
    return current_backend(x).svdvals(x, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def trace(
    x: Array | NativeArray,
    /,
    *,
    offset: int = 0,
    dtype: Any = None,
    out: Optional[Array] = None,
) -> Array:
    """Sum of the ``offset`` diagonal; accumulates in the dtype ``sum`` would use."""
    return current_backend(x).trace(x, offset=offset, dtype=dtype, out=out)


@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
def vector_norm(
    x: Array | NativeArray,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,
    out: Optional[Array] = None,
) -> Array:
    """Vector ``ord``-norm over ``axis`` (all axes when ``None``); real-valued."""
    return current_backend(x).vector_norm(x, axis=axis, keepdims=keepdims, ord=ord, out=out)
