"""Which names each namespace holds, and that a backend switch leaves every namespace alone.

The names are the standard's own lists, read from the specification's stubs beside the
checkout (``../shared/array-api-tests/array-api``, the suite's pinned copy): the main namespace
holds every function and constant of the 2023.12 standard, ``ivy.linalg`` and ``ivy.fft`` are
the extension modules, and the extensions' own functions are not in the main namespace. Each
name is bound once at import; ``set_backend`` only rebinds what the functions call, so it
writes into no namespace and every public object keeps its identity.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import pytest

import ivycheck.runtime as ivy

from .conftest import BACKENDS

STUBS = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "array-api-tests"
    / "array-api"
    / "src"
    / "array_api_stubs"
    / "_2023_12"
)

IVY_MAIN_EXTRAS = {"cholesky"}
"""Extension-only names the main namespace keeps: Ivy's ``ivy.cholesky`` (``upper=``) was
public before the extension existed, and is the same object as ``ivy.linalg.cholesky``."""


def _spec_all(module: str) -> list[str]:
    """``__all__`` of one stub module of the specification, read without importing it."""
    path = STUBS / f"{module}.py"
    if not path.is_file():
        pytest.skip(f"the specification's stubs are not at {STUBS} (../shared beside the checkout)")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            names = ast.literal_eval(node.value)
            assert isinstance(names, list) and names, path
            return names
    raise AssertionError(f"no __all__ in {path}")


def _spec_main() -> set[str]:
    """The standard's main namespace: every ``*_functions`` module, the constants and
    ``__array_namespace_info__`` (the info stub's other names are methods of what it returns)."""
    modules = [p.stem for p in STUBS.glob("*_functions.py")]
    assert len(modules) >= 10, f"the stubs at {STUBS} look incomplete: {modules}"
    names = {name for module in modules for name in _spec_all(module)}
    names |= set(_spec_all("constants"))
    assert "__array_namespace_info__" in _spec_all("info")
    return names | {"__array_namespace_info__"}


def test_every_main_namespace_name_of_the_standard_is_there() -> None:
    main = _spec_main()
    missing = sorted(name for name in main if not hasattr(ivy, name))
    assert missing == []


def test_every_dtype_of_the_standard_is_a_name_of_the_main_namespace() -> None:
    for name, dtype in ivy.__array_namespace_info__().dtypes().items():
        assert getattr(ivy, name) == dtype, name


@pytest.mark.parametrize("extension", ["linalg", "fft"])
def test_the_extensions_are_modules_with_the_standards_names(extension: str) -> None:
    namespace = getattr(ivy, extension)
    assert isinstance(namespace, ModuleType)
    assert namespace is sys.modules[f"ivycheck.runtime.{extension}"]
    missing = sorted(name for name in _spec_all(extension) if not hasattr(namespace, name))
    assert missing == []


@pytest.mark.parametrize("extension", ["linalg", "fft"])
def test_extension_only_names_are_not_in_the_main_namespace(extension: str) -> None:
    only_there = set(_spec_all(extension)) - _spec_main() - IVY_MAIN_EXTRAS
    assert only_there, extension  # det, inv ... / fft, rfft ...
    leaked = sorted(
        name
        for name in only_there
        if hasattr(ivy, name) and getattr(ivy, name) is not getattr(ivy, extension)
    )
    assert leaked == []
    assert not hasattr(ivy, "det")
    with pytest.raises(AttributeError, match="det"):
        ivy.det  # type: ignore[attr-defined]  # noqa: B018


def test_names_in_both_namespaces_are_one_object() -> None:
    shared = set(_spec_all("linalg")) & _spec_main()
    assert {"matmul", "matrix_transpose", "tensordot", "vecdot"} <= shared
    for name in sorted(shared | IVY_MAIN_EXTRAS):
        assert getattr(ivy.linalg, name) is getattr(ivy, name), name


def test_names_in_both_namespaces_work_from_both(backend: str) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    for namespace in (ivy, ivy.linalg):
        got = namespace.matmul(ivy.asarray(a), ivy.asarray(b))
        np.testing.assert_allclose(ivy.to_numpy(got), a @ b)
        got = namespace.tensordot(ivy.asarray(a), ivy.asarray(b), axes=1)
        np.testing.assert_allclose(ivy.to_numpy(got), np.tensordot(a, b, axes=1))
        got = namespace.vecdot(ivy.asarray(a), ivy.asarray(a))
        np.testing.assert_allclose(ivy.to_numpy(got), (a * a).sum(-1))
        got = namespace.matrix_transpose(ivy.asarray(a))
        np.testing.assert_array_equal(ivy.to_numpy(got), a.T)


def test_fft_namespace_transforms_on_every_backend(backend: str) -> None:
    x = (np.arange(8) + 1j * np.arange(8)[::-1]).astype(np.complex64)
    got = ivy.fft.fft(ivy.asarray(x))
    assert isinstance(ivy.to_native(got), ivy.NativeArray)
    assert got.dtype == ivy.complex64
    np.testing.assert_allclose(ivy.to_numpy(got), np.fft.fft(x), rtol=1e-4, atol=1e-4)
    back = ivy.fft.ifft(got)
    np.testing.assert_allclose(ivy.to_numpy(back), x, rtol=1e-4, atol=1e-4)
    freqs = ivy.fft.rfftfreq(8, d=0.5)
    np.testing.assert_allclose(ivy.to_numpy(freqs), np.fft.rfftfreq(8, d=0.5))


def test_linalg_det_on_every_backend(backend: str) -> None:
    a = np.array([[2.0, 1.0], [1.0, 3.0]], dtype=np.float64)
    got = ivy.linalg.det(ivy.asarray(a))
    assert isinstance(ivy.to_native(got), ivy.NativeArray)
    assert got.dtype == ivy.float64
    np.testing.assert_allclose(ivy.to_numpy(got), np.linalg.det(a))


def _public(namespace: ModuleType) -> dict[str, Any]:
    return {name: value for name, value in vars(namespace).items() if not name.startswith("_")}


def test_every_public_object_keeps_its_identity_across_set_backend() -> None:
    namespaces = (ivy, ivy.linalg, ivy.fft)
    before = [_public(namespace) for namespace in namespaces]
    assert "abs" in before[0] and "det" in before[1] and "fft" in before[2]
    for backend in BACKENDS:
        ivy.set_backend(backend)
        try:
            for namespace, was in zip(namespaces, before, strict=True):
                changed = sorted(n for n, v in was.items() if getattr(namespace, n) is not v)
                assert changed == [], (namespace.__name__, backend)
        finally:
            ivy.unset_backend()
    assert [_public(namespace) for namespace in namespaces] == before


class _Recording(ModuleType):
    """A module that records every attribute written into it (the class is swapped in)."""

    writes: ClassVar[list[tuple[str, str]]] = []

    def __setattr__(self, name: str, value: Any) -> None:
        _Recording.writes.append((self.__name__, name))
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        _Recording.writes.append((self.__name__, name))
        super().__delattr__(name)


@contextmanager
def _recording(*modules: ModuleType) -> Iterator[list[tuple[str, str]]]:
    classes = [type(module) for module in modules]
    _Recording.writes = []
    for module in modules:
        module.__class__ = _Recording
    try:
        yield _Recording.writes
    finally:
        for module, cls in zip(modules, classes, strict=True):
            module.__class__ = cls


def test_a_backend_switch_writes_nothing_into_the_namespaces() -> None:
    for backend in BACKENDS:  # first imports of the backends are done before recording
        with ivy.using_backend(backend):
            pass
    with _recording(ivy, ivy.linalg, ivy.fft) as writes:
        ivy.linalg._probe = 1  # type: ignore[attr-defined]  # the recorder sees writes
        del ivy.linalg._probe  # type: ignore[attr-defined]
        assert writes == [("ivycheck.runtime.linalg", "_probe")] * 2
        writes.clear()
        for backend in BACKENDS:
            ivy.set_backend(backend)
            native = ivy.to_native(ivy.asarray([1.0]))
            assert isinstance(native, ivy.NativeArray), backend  # read, not written
            ivy.unset_backend()
            with ivy.using_backend(backend):
                ivy.abs(ivy.asarray([-1.0]))
        assert writes == []


def test_array_methods_reach_extension_functions(backend: str) -> None:
    """``x.det()`` calls the registered function, wherever the namespace exports it."""
    x = ivy.asarray(np.array([[2.0, 0.0], [0.0, 3.0]], dtype=np.float32))
    np.testing.assert_allclose(ivy.to_numpy(x.det()), 6.0)
    assert x.fft is not None and hasattr(x, "det")
    assert not hasattr(x, "no_such_function")
