"""The ``fft`` extension on the four backends, ``numpy.fft`` as the oracle: values, dtypes
(single precision kept), lengths ``n``/``s``, every ``norm``, axes; ``out`` keyword-only and
dtype-keeping; ``ivy.fft`` both Ivy's function and the standard's namespace, across
``set_backend``."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ivycheck.runtime as ivy

fft = importlib.import_module("ivycheck.runtime.fft")  # the extension module, also ivy.fft

# 6 draws (10 before every function got fixed oracle cases on every backend in
# test_every_function.py; JAX compiles each drawn shape, the most of make test's time here).
FAST = settings(  # the backend fixture holds for every example: it only selects the backend
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
NORMS = st.sampled_from(["backward", "ortho", "forward"])


def signals(dtypes: list[Any]) -> Any:
    return hnp.arrays(
        st.sampled_from(dtypes),
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
        elements=st.floats(-10, 10, width=32, allow_subnormal=False),  # XLA/TF flush them
    )


def _close(got: Any, expected: np.ndarray) -> None:
    assert isinstance(got, ivy.Array)
    assert str(got.dtype) == str(expected.dtype), (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    tol = 1e-3 if expected.dtype in (np.float32, np.complex64) else 1e-9
    np.testing.assert_allclose(ivy.to_numpy(got), expected, rtol=tol, atol=tol * 50)


@FAST
@given(x=signals([np.complex64, np.complex128]), norm=NORMS, data=st.data())
def test_complex_transforms_match_numpy(
    backend: str, x: np.ndarray, norm: str, data: st.DataObject
) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), "axis")
    n = data.draw(st.none() | st.integers(1, 7), "n")
    for name in ("fft", "ifft", "hfft"):
        if name == "hfft" and n is None and x.shape[axis] == 1:
            continue  # the default output length 2 * (m - 1) is 0: invalid everywhere
        got = getattr(fft, name)(ivy.asarray(x), n=n, axis=axis, norm=norm)
        _close(got, getattr(np.fft, name)(x, n=n, axis=axis, norm=norm))
    axes = data.draw(st.lists(st.integers(0, x.ndim - 1), min_size=1, unique=True), "axes")
    s = data.draw(st.none() | st.lists(st.integers(1, 6), min_size=len(axes), max_size=len(axes)))
    for name in ("fftn", "ifftn"):
        got = getattr(fft, name)(ivy.asarray(x), s=s, axes=axes, norm=norm)
        _close(got, getattr(np.fft, name)(x, s=s, axes=axes, norm=norm))
    _close(fft.fftn(ivy.asarray(x)), np.fft.fftn(x))


@FAST
@given(x=signals([np.float32, np.float64]), norm=NORMS, data=st.data())
def test_real_transforms_match_numpy(
    backend: str, x: np.ndarray, norm: str, data: st.DataObject
) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), "axis")
    n = data.draw(st.none() | st.integers(2, 8), "n")
    spectrum = np.fft.rfft(x, n=n, axis=axis, norm=norm)
    _close(fft.rfft(ivy.asarray(x), n=n, axis=axis, norm=norm), spectrum)
    _close(
        fft.ihfft(ivy.asarray(x), n=n, axis=axis, norm=norm),
        np.fft.ihfft(x, n=n, axis=axis, norm=norm),
    )
    n_back = 1 if n is None and spectrum.shape[axis] == 1 else n  # default 2 * (1 - 1) = 0
    back = np.fft.irfft(spectrum, n=n_back, axis=axis, norm=norm)
    _close(fft.irfft(ivy.asarray(spectrum), n=n_back, axis=axis, norm=norm), back)
    s = data.draw(st.none() | st.lists(st.integers(2, 6), min_size=x.ndim, max_size=x.ndim), "s")
    axes = tuple(range(x.ndim))  # the standard: when s is given, axes must be too
    full = np.fft.rfftn(x, s=s, axes=axes, norm=norm)
    _close(fft.rfftn(ivy.asarray(x), s=s, axes=axes, norm=norm), full)
    s_back = list(x.shape) if s is None else s
    _close(
        fft.irfftn(ivy.asarray(full), s=s_back, axes=axes, norm=norm),
        np.fft.irfftn(full, s=s_back, axes=axes, norm=norm),
    )


@FAST
@given(x=signals([np.float32, np.float64]), data=st.data())
def test_shifts_match_numpy(backend: str, x: np.ndarray, data: st.DataObject) -> None:
    axes = data.draw(
        st.none()
        | st.integers(-x.ndim, x.ndim - 1)
        | st.lists(st.integers(0, x.ndim - 1), unique=True),
        "axes",
    )
    for name in ("fftshift", "ifftshift"):
        _close(getattr(fft, name)(ivy.asarray(x), axes=axes), getattr(np.fft, name)(x, axes=axes))


def test_zero_points_raise_or_give_nothing(backend: str) -> None:
    """``irfft`` of one term has 2 * (1 - 1) = 0 points by default: an error (NumPy, PyTorch,
    TensorFlow -- whose kernel would abort the process) or an empty result (JAX)."""
    try:
        got = fft.irfft(ivy.ones((1,), dtype="complex64"))
    except (ValueError, RuntimeError):
        return
    assert got.shape == (0,)


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_frequencies_in_the_default_float_dtype(backend: str, n: int) -> None:
    _close(fft.fftfreq(n, d=0.5), np.fft.fftfreq(n, d=0.5).astype(np.float32))
    _close(fft.rfftfreq(n), np.fft.rfftfreq(n).astype(np.float32))
    _close(fft.fftfreq(n, dtype=ivy.float64), np.fft.fftfreq(n))


def test_out_is_keyword_only_and_keeps_its_dtype(backend: str) -> None:
    x = ivy.asarray(np.arange(4, dtype=np.complex64))
    out = ivy.zeros((4,), dtype="complex128")
    assert fft.fft(x, out=out) is out
    assert out.dtype == ivy.complex128
    np.testing.assert_allclose(ivy.to_numpy(out), np.fft.fft(np.arange(4)), atol=1e-5)
    with pytest.raises(TypeError):
        fft.fft(x, 4, out=out)  # type: ignore[misc]


def test_ivy_fft_is_the_extension_namespace() -> None:
    """``ivy.fft`` is the standard's ``fft`` extension module, not its ``fft`` function."""
    assert ivy.fft is fft
    assert not callable(ivy.fft)
    x = np.arange(6, dtype=np.complex128)
    for name in ("torch", "tensorflow", "numpy"):
        with ivy.using_backend(name):
            assert ivy.fft is fft  # a backend switch rebinds nothing
            got = ivy.fft.ifft(ivy.asarray(x))
            assert isinstance(ivy.to_native(got), ivy.current_backend().primitives.NATIVE_TYPES)
            np.testing.assert_allclose(ivy.to_numpy(ivy.fft.fft(ivy.asarray(x))), np.fft.fft(x))
