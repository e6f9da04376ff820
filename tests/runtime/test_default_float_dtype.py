"""``set_default_float_dtype``: float64 defaults, chosen at run time, on every backend and path.

Each default the standard leaves to the implementation follows the choice -- Python floats,
creation functions without ``dtype``, a Python float or complex beside an integer array, the
``fft`` frequency grids, ``__array_namespace_info__().default_dtypes()`` -- through the C
paths and the Python ones (``__ivy_general__``), on the backend in use and on one set later;
setting float32 again gives float32 everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.exceptions import IvyValueError


@pytest.fixture
def float64_default() -> Iterator[None]:
    ivy.set_default_float_dtype(ivy.float64)
    try:
        yield
    finally:
        ivy.set_default_float_dtype(ivy.float32)


def paths(fn: Callable[..., Any]) -> list[Callable[..., Any]]:
    """``fn`` and, where the C paths serve it, its Python twin."""
    python = getattr(fn, "__ivy_general__", None)
    return [fn] if python is None else [fn, python]


REAL_CALLS: dict[str, Callable[[], Any]] = {
    "zeros": lambda: [f((2, 3)) for f in paths(ivy.zeros)] + [ivy.zeros(3), ivy.zeros(shape=(2,))],
    "ones": lambda: [f((2,)) for f in paths(ivy.ones)],
    "empty": lambda: [f((2,)) for f in paths(ivy.empty)],
    "full": lambda: [f((2,), 1.5) for f in paths(ivy.full)] + [ivy.full((2,), 1.5, dtype=None)],
    "arange": lambda: [ivy.arange(0.5, 3.0), ivy.arange(0, 2, 0.5)],
    "linspace": lambda: [ivy.linspace(0, 1, 5), ivy.linspace(0, 1, 5, endpoint=False)],
    "eye": lambda: [f(3) for f in paths(ivy.eye)] + [ivy.eye(3, 4, k=1)],
    "asarray": lambda: [ivy.asarray(1.5), ivy.asarray([1.0, 2]), ivy.asarray([[0.5], [1]])],
    "int array + float": lambda: (
        [f(ivy.asarray([1, 2], dtype=ivy.int8), 1.5) for f in paths(ivy.add)]
        + [ivy.asarray([1, 2]) + 1.5, 2.5 * ivy.asarray([True]), ivy.asarray([3]) - 0.5]
    ),
    "fft frequencies": lambda: [ivy.fft.fftfreq(4), ivy.fft.rfftfreq(4)],
}
COMPLEX_CALLS: dict[str, Callable[[], Any]] = {
    "asarray": lambda: [ivy.asarray(1j), ivy.asarray([1, 2j])],
    "int array * complex": lambda: [ivy.asarray([1, 2]) * 1j, ivy.multiply(1j, ivy.asarray([2]))],
}


def dtypes_of(calls: dict[str, Callable[[], Any]]) -> dict[str, set[str]]:
    return {name: {str(a.dtype) for a in call()} for name, call in calls.items()}


def test_float64_default_everywhere(backend: str, float64_default: None) -> None:
    assert ivy.default_float_dtype() == ivy.float64
    assert dtypes_of(REAL_CALLS) == {name: {"float64"} for name in REAL_CALLS}
    assert dtypes_of(COMPLEX_CALLS) == {name: {"complex128"} for name in COMPLEX_CALLS}
    assert ivy.result_type(1.5) == ivy.float64
    defaults = ivy.__array_namespace_info__().default_dtypes()
    assert (defaults["real floating"], defaults["complex floating"]) == ("float64", "complex128")


def test_float64_default_holds_on_a_backend_set_later(float64_default: None) -> None:
    for name in ("torch", "numpy"):
        with ivy.using_backend(name):
            assert dtypes_of(REAL_CALLS) == {n: {"float64"} for n in REAL_CALLS}


def test_sklearn_calibration_shape(backend: str, float64_default: None) -> None:
    """What scikit-learn's temperature calibration does: a default-dtype accumulator added to
    in place with float64 results (refused under float32 defaults: it would change ``x``'s
    dtype)."""
    total = ivy.zeros((3, 2))
    total += ivy.asarray([[0.25, 0.75]] * 3, dtype=ivy.float64)
    assert total.dtype == ivy.float64
    assert ivy.to_numpy(total).tolist() == [[0.25, 0.75]] * 3


def test_float32_again(backend: str) -> None:
    ivy.set_default_float_dtype("float64")
    ivy.set_default_float_dtype("float32")
    assert ivy.default_float_dtype() == ivy.float32
    assert dtypes_of(REAL_CALLS) == {name: {"float32"} for name in REAL_CALLS}
    assert dtypes_of(COMPLEX_CALLS) == {name: {"complex64"} for name in COMPLEX_CALLS}


@pytest.mark.parametrize("wrong", ["int32", ivy.float16, ivy.complex128, "float", object()])
def test_only_float32_or_float64(wrong: object) -> None:
    with pytest.raises(IvyValueError, match="set_default_float_dtype"):
        ivy.set_default_float_dtype(wrong)
    assert ivy.default_float_dtype() == ivy.float32
