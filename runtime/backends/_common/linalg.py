"""Shape and scaling rules of the ``linalg`` and ``fft`` extensions, written once for the four
backends (pure Python on shapes and numbers: each backend applies them with its own ops)."""

from __future__ import annotations

from collections.abc import Sequence

from ivycheck.runtime.axes import normalize_axes
from ivycheck.runtime.exceptions import IvyValueError


def require_finite(name: str, finite: bool) -> None:
    """Refuse a non-finite matrix (``finite``: whether every element is finite) where a
    backend's SVD would never return on it: NumPy's and JAX's ``pinv`` of a 3x3 matrix with
    one ``inf`` loop forever (LAPACK's ``gesdd``), PyTorch and TensorFlow answer NaN; so one
    answer on every backend, a clear error before the backend runs."""
    if not finite:
        raise IvyValueError(
            f"{name}: the matrix has a non-finite element (inf or nan); its SVD does not "
            "converge (NumPy's and JAX's would never return)"
        )


def solve_shapes(
    a: tuple[int, ...], b: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Shapes to broadcast ``x1`` and ``x2`` of ``solve`` to, and whether ``x2`` is a vector.

    The standard reads ``x2`` as a vector only when it has one axis; otherwise as a stack of
    ``(M, K)`` matrices whose batch axes broadcast against ``x1``'s. PyTorch (and older
    NumPy) also read ``x2`` of shape ``x1.shape[:-1]`` as a batch of vectors, so the batch
    axes are broadcast explicitly, leaving no ambiguity for any backend.
    """
    if len(b) == 1:
        return a, b, True
    batch = _broadcast(a[:-2], b[:-2])
    return (*batch, *a[-2:]), (*batch, *b[-2:]), False


def _broadcast(s1: tuple[int, ...], s2: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(s1), len(s2))
    p1, p2 = (1,) * (n - len(s1)) + s1, (1,) * (n - len(s2)) + s2
    out = []
    for d1, d2 in zip(p1, p2, strict=True):
        if d1 != d2 and 1 not in (d1, d2):
            raise ValueError(f"solve: batch shapes {s1} and {s2} do not broadcast")
        out.append(d2 if d1 == 1 else d1)
    return tuple(out)


def fft_axes(
    ndim: int, s: Sequence[int] | None, axes: Sequence[int] | None
) -> tuple[list[int], list[int | None]]:
    """Normalised ``axes`` of an n-dimensional transform and the length per axis (``None``:
    the input's). The standard: ``axes=None`` means all axes, or the last ``len(s)``."""
    if axes is None:
        chosen = list(range(ndim)) if s is None else list(range(ndim - len(s), ndim))
    else:
        chosen = list(normalize_axes(tuple(axes), ndim))
    lengths: list[int | None] = [None] * len(chosen) if s is None else list(s)
    if len(lengths) != len(chosen):
        raise ValueError(f"fft: s {tuple(lengths)} and axes {tuple(chosen)} differ in length")
    return chosen, [None if n == -1 else n for n in lengths]


def norm_factor(norm: str, n: int, *, inverse: bool) -> float:
    """What an unnormalised transform of length ``n`` is multiplied by for ``norm``."""
    if norm == "ortho":
        return float(n) ** -0.5 if n else 1.0
    if norm not in ("backward", "forward"):
        raise ValueError(f"fft: norm must be 'backward', 'ortho' or 'forward', not {norm!r}")
    scaled = (norm == "backward") == inverse
    return 1.0 / n if scaled and n else 1.0


def swap_norm(norm: str) -> str:
    """``hfft``/``ihfft`` are ``irfft``/``rfft`` of the conjugate with the other direction's
    normalisation (NumPy's definition, the one the standard follows)."""
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)
