"""The runtime's gate on the Dask backend: every function against NumPy, views, ``out``, copy.

The tests are the other four backends' own (``test_every_function``, ``test_views``,
``test_out``, ``test_inplace``), collected here a second time with this module's ``backend``
fixture, which sets Dask: one definition of each behaviour, checked on a fifth backend
without adding Dask to ``conftest.BACKENDS`` (whose every test would then run on it too:
minutes of ``make test``; that wider run is ``test_dask_suite.py``, marked slow). Tests that
name the backends whose arrays are immutable (``jax``, ``tensorflow``) take Dask's answer
from ``test_dask_backend.py`` instead.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from types import ModuleType

import pytest

import ivycheck.runtime as ivy

from . import test_every_function, test_inplace, test_out, test_views


def _on_any_backend(test: object) -> bool:
    """A test of the ``backend`` fixture, not parametrized over named backends itself."""
    if "backend" not in inspect.signature(test).parameters:  # type: ignore[arg-type]
        return False
    marks = getattr(test, "pytestmark", [])
    return not any(m.name == "parametrize" and "backend" in str(m.args[0]) for m in marks)


def collected_tests(
    *modules: ModuleType, leaving: frozenset[str] = frozenset()
) -> dict[str, object]:
    """The tests of ``modules`` that run on whatever backend the ``backend`` fixture sets,
    but those named in ``leaving``; a name two modules use is kept twice, the second with
    its module's name added."""
    found: dict[str, object] = {}
    for module in modules:
        for name, test in vars(module).items():
            if name.startswith("test_") and callable(test) and _on_any_backend(test):
                if name in leaving:
                    continue
                key = name if name not in found else f"{name}_of_{module.__name__.split('.')[-1]}"
                found[key] = test
    return found


globals().update(collected_tests(test_every_function, test_inplace, test_out, test_views))


@pytest.fixture
def backend() -> Iterator[str]:
    """Dask, for every test collected here (overrides ``conftest.backend``)."""
    with ivy.using_backend("dask"):
        yield "dask"
