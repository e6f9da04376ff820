"""The Array API standard's test suite, the part of it that fits ``make test``, per backend.

The whole suite takes from half a minute (NumPy) to a quarter of an hour (JAX compiles every
new shape) per backend at 20 examples (``make conformance``, figures in docs/conformance.md).
Here: the whole suite on NumPy at 5 examples, and on PyTorch, JAX and TensorFlow the files
that check the namespace itself -- every name present, every signature as the standard
writes it, the constants, ``__array_namespace_info__`` -- and the elementwise and creation
files, at 5 examples (JAX: 3; its cost is compiling each new shape). The version is the one the
namespace implements (``conformance.VERSION``, 2025.12). Each run fails on any failure the
committed list of that backend (``tests/conformance/<backend>-xfails.txt``, written from the
full run) does not name.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import load_script

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "conformance.py"


def _load_script() -> ModuleType:
    return load_script(SCRIPT, "conformance")


conformance = _load_script()

FILES = [
    "test_has_names.py",
    "test_signatures.py",
    "test_constants.py",
    "test_inspection_functions.py",
    "test_creation_functions.py",
    "test_operators_and_elementwise_functions.py",
]


SELECTION = {"numpy": [], "torch": FILES, "jax": FILES, "tensorflow": FILES}
"""Suite files run per backend (none listed: the whole suite)."""
EXAMPLES = {"numpy": 5, "torch": 5, "jax": 3, "tensorflow": 5}


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "tensorflow"])
def test_failures_are_all_listed(backend: str) -> None:
    assert importlib.util.find_spec("pytest_jsonreport") is not None, (
        "the conformance extra is not installed (pip install -e '.[conformance]')"
    )
    outcome = conformance.run_backend(
        backend, max_examples=EXAMPLES[backend], selection=SELECTION[backend], seed=0
    )  # a fixed seed: the same draws every run, so only a change in the code changes them
    assert outcome.passed > 0, outcome.line()
    unlisted = {test_id: outcome.failures[test_id] for test_id in conformance.unlisted(outcome)}
    assert unlisted == {}, (
        f"{len(unlisted)} failure(s) not in {conformance.list_path(backend)}: fix them, or run "
        "`scripts/conformance.py --update` after reading each"
    )
