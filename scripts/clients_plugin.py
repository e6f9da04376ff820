"""pytest plugin of ``scripts/clients.py``: a client's own array-API tests run on this namespace.

Loaded with ``-p clients_plugin`` (``scripts/`` on ``PYTHONPATH``). The backend is
``IVYCHECK_CLIENT_BACKEND``. scikit-learn's tests take their namespaces from
``yield_namespace_device_dtype_combinations``, which is replaced by this namespace in float64
and float32 (the device left to the default), before the test modules are collected.
array-api-extra's tests take the module named by a backend: with
``IVYCHECK_CLIENT_AS_STRICT=1`` the name ``array_api_strict`` is this namespace (of the
strict-only names it calls, ``set_array_api_strict_flags`` does nothing and ``Device(name)``
is this namespace's one device), so ``-k array_api_strict`` runs the suite on it. The default
float dtype is ``IVYCHECK_CLIENT_DEFAULT_FLOAT`` (``ivy.set_default_float_dtype``; float64 when
unset, as NumPy's and array-api-strict's, which the suites assume).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import ivycheck.runtime as ivy

NAMESPACE = "ivycheck.runtime"


def _combinations(include_numpy_namespaces: bool = True) -> Iterator[tuple[str, Any, str]]:
    yield NAMESPACE, None, "float64"
    yield NAMESPACE, None, "float32"


def _namespaces(include_numpy_namespaces: bool = True) -> Iterator[str]:
    yield NAMESPACE


def pytest_configure(config: Any) -> None:
    ivy.set_backend(os.environ.get("IVYCHECK_CLIENT_BACKEND", "numpy"))
    ivy.set_default_float_dtype(os.environ.get("IVYCHECK_CLIENT_DEFAULT_FLOAT", "float64"))
    for marker in ("thread_unsafe", "parallel_threads"):  # pytest-run-parallel's, not needed
        config.addinivalue_line("markers", f"{marker}: (pytest-run-parallel)")
    if os.environ.get("IVYCHECK_CLIENT_AS_STRICT") == "1":
        ivy.set_array_api_strict_flags = lambda **kwargs: None  # type: ignore[attr-defined]
        ivy.Device = lambda name="cpu": "cpu"  # type: ignore[attr-defined]  # (one device)
        sys.modules["array_api_strict"] = ivy
        return
    try:
        import sklearn.utils._array_api as array_api
    except ImportError:
        return
    array_api.yield_namespace_device_dtype_combinations = _combinations  # type: ignore[assignment]
    array_api.yield_namespaces = _namespaces  # type: ignore[assignment]
