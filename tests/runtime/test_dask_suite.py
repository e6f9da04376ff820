"""The rest of ``tests/runtime`` on the Dask backend (slow: ``make test-slow``).

``test_dask_gate.py`` runs the gate (every function, views, ``out``, in-place) in ``make
test``; this runs every other module's backend-independent tests on Dask too, with the same
``backend`` fixture. Left out (``LEFT_OUT``), each for its reason, with Dask's own answer in
``test_dask_backend.py``.
"""

from __future__ import annotations

import importlib

import pytest

from .test_dask_gate import backend, collected_tests  # noqa: F401  (``backend``: the Dask fixture)

MODULES = tuple(
    importlib.import_module(f".{name}", __package__)
    for name in (
        "test_array_object", "test_dlpack_imports", "test_dtypes", "test_edge_values",
        "test_elementwise", "test_fft", "test_linalg_ext", "test_linear_algebra_functions",
        "test_manipulation_functions", "test_memory_semantics", "test_no_abort",
        "test_one_answer", "test_out_paths", "test_properties", "test_reliability",
        "test_searching_functions", "test_statistical_functions", "test_threads_inplace",
        "test_utility_functions", "test_view_chains",
    )
)  # fmt: skip

pytestmark = pytest.mark.slow

LEFT_OUT = frozenset(
    {
        # Expects a refusal on the immutable backends it names, JAX and TensorFlow; Dask's
        # arrays are immutable too, and refuse likewise.
        "test_ensure_in_backend_fails_cleanly_or_writes",
        # Expects a zero-copy import; ``da.from_array`` copies whatever it is given, so Dask
        # refuses ``copy=False`` imports.
        "test_copy_false_shares_compact_aligned_memory",
        # 510 writes through views into one array before it is computed: each adds to the
        # array's lazy graph, and Dask's cost of adding to a graph grows with its length
        # (minutes here; docs/runtime.md says so).
        "test_many_views_do_not_accumulate_state_on_the_base",
    }
)

globals().update(collected_tests(*MODULES, leaving=LEFT_OUT))
