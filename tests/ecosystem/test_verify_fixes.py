"""The logic of ``scripts/verify_fixes.py`` on small synthetic code (no corpus needed).

The full run over the shared Ivy snapshot is ``make verify-fixes``; here the harness' own parts
are pinned: which functions a fix changed, the worker's observations on a tiny fake ``ivy``
package (the issue-23 scatter case: a function that accumulates into ``out`` and one that
overwrites it must be told apart), the verdicts, and the review's optional ``runtime`` key.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import load_script

REPO = Path(__file__).resolve().parents[2]


def _load(name: str) -> ModuleType:
    return load_script(REPO / "scripts" / f"{name}.py", name)


vf = _load("verify_fixes")
eco = _load("ecosystem_check")

FAKE_IVY = """
import numpy as np


class Array:
    def __init__(self, data):
        self.data = np.asarray(data)


def set_backend(name):
    if name != "numpy":
        raise ImportError(f"no backend {name}")


def seed(seed_value=0):
    np.random.seed(seed_value)


def is_array(x):
    return isinstance(x, (Array, np.ndarray))


def to_native(x):
    return x.data if isinstance(x, Array) else x


def dtype(x):
    return to_native(x).dtype


def shape(x):
    return to_native(x).shape


def array(data, dtype=None):
    return Array(np.asarray(data, dtype=dtype))


def zeros(shape, dtype=None):
    return Array(np.zeros(shape, dtype=dtype))


def full(shape, fill_value, dtype=None):
    return Array(np.full(shape, fill_value, dtype=dtype))


def scatter_double(x: Array, /, *, out: Array = None) -> Array:
    ret = to_native(x) * 2
    if out is not None:
        {write}
        return out
    return Array(ret)


def ignores_out(x: Array, /, *, out: Array = None) -> Array:
    return Array(to_native(x) + 1)


def view_of_small(x: Array, /) -> Array:
    native = to_native(x)
    return Array(native if native.size == 1 else native.copy())


def always_fails(x: Array, /) -> Array:
    raise RecursionError("the lookup recursed")
"""


def _tree(root: Path, write: str) -> Path:
    (root / "ivy").mkdir(parents=True)
    (root / "ivy" / "__init__.py").write_text(FAKE_IVY.replace("{write}", write))
    return root


def test_changed_units_are_functions_with_their_attribute_lines() -> None:
    before = textwrap.dedent(
        """
        import numpy as np

        def f(x, *, out=None):
            return np.sin(x)

        f.support_native_out = True

        @dec_b
        @dec_a
        def g(x):
            return x

        class C:
            def m(self):
                return 1
        """
    )
    after = before.replace("f.support_native_out = True\n", "").replace(
        "@dec_b\n@dec_a", "@dec_a\n@dec_b"
    )
    assert vf.changed_units(before, after) == ["f", "g"]
    assert vf.unit_at(before, 7) == "f"  # the attribute line belongs to f
    assert vf.unit_at(before, 9) == "g"  # a decorator line belongs to g
    assert vf.unit_at(before, 15) == "C.m"


def test_paths_map_to_backends_and_private_helpers_are_not_run() -> None:
    assert vf.backend_of("ivy/functional/backends/torch/experimental/layers.py") == "torch"
    assert vf.backend_of("ivy/functional/ivy/elementwise.py") is None
    assert vf.Target("ivy/functional/ivy/a.py", "f").backends(["numpy", "torch"]) == [
        "numpy",
        "torch",
    ]
    assert "private" in vf.Target("ivy/functional/backends/numpy/a.py", "_h").why_not_runnable()
    assert vf.Target("ivy/functional/backends/numpy/a.py", "h").why_not_runnable() is None


def test_claims_are_recognised_from_the_message() -> None:
    finding = {
        "code": "IVY002",
        "message": "`erf` has `support_native_out` but ... and `out` silently changes dtype; "
        "remove the attribute",
        "filename": "ivy/functional/backends/numpy/elementwise.py",
        "location": {"row": 3, "column": 1},
    }
    assert vf.claim_check(finding) == "dtype_change"
    assert vf.claim_function(finding, "") == "erf"
    assert vf.claim_backends(finding, "dtype_change", ["numpy", "torch"]) == ["numpy"]
    choose = {**finding, "code": "IVY017", "message": "`current_backend(...).choose` is ..."}
    assert vf.claim_function(choose, "") == "choose"


@pytest.fixture(scope="module")
def observations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The worker on a tree that accumulates into ``out`` and on one that overwrites it."""
    root = tmp_path_factory.mktemp("verify")
    accumulate = _tree(root / "accumulate", "out.data += ret")
    overwrite = _tree(root / "overwrite", "out.data[...] = ret")
    job = {
        "backend": "numpy",
        "functions": ["scatter_double", "ignores_out", "missing"],
        "claims": [
            {"id": "c1", "function": "ignores_out", "check": "out_not_written"},
            {"id": "c2", "function": "scatter_double", "check": "out_not_written"},
            {"id": "c3", "function": "view_of_small", "check": "returns_view_degenerate"},
            {"id": "c4", "function": "view_of_small", "check": "returns_view"},
            {"id": "c5", "function": "always_fails", "check": "raises"},
            {"id": "c6", "function": "always_fails", "check": "raises_attribute_error"},
        ],
    }
    return {
        "accumulate": vf.run_worker(accumulate, job, root, "a"),
        "overwrite": vf.run_worker(overwrite, job, root, "b"),
        "torch": vf.run_worker(accumulate, {**job, "backend": "torch"}, root, "c"),
    }


def test_an_accumulating_out_differs_from_an_overwriting_one(observations: dict[str, Any]) -> None:
    before = observations["accumulate"]["functions"]["scatter_double"]
    after = observations["overwrite"]["functions"]["scatter_double"]
    assert before["plain"]["plan"] == "float matrix"
    assert before["out_same"]["ret_is_out"] and before["out_same"]["out_buffer_kept"]
    assert before["out_same"]["out_values"][0][0] == pytest.approx(7 + 2 * 0.9)
    assert after["out_same"]["out_values"][0][0] == pytest.approx(2 * 0.9)
    kind, detail = vf.verdict(before, after, ["IVY002"])
    assert kind == "differs"
    assert "out_same" in detail and "out_values" in detail


def test_the_same_tree_twice_is_the_same(observations: dict[str, Any]) -> None:
    seen = observations["accumulate"]["functions"]["scatter_double"]
    assert vf.verdict(seen, seen) == ("same", "")


def test_a_missing_function_and_a_missing_backend_are_not_runnable(
    observations: dict[str, Any],
) -> None:
    missing = observations["accumulate"]["functions"]["missing"]
    assert vf.verdict(missing, missing)[0] == "not runnable"
    assert "no backend torch" in observations["torch"]["backend_error"]


def test_claims_are_confirmed_or_refuted_by_running(observations: dict[str, Any]) -> None:
    claims = observations["accumulate"]["claims"]
    assert claims["c1"]["status"] == "confirmed"  # ignores_out never writes out
    assert claims["c2"]["status"] == "refuted"  # scatter_double does
    assert claims["c3"]["status"] == "confirmed"  # a view of a 0-d input
    assert claims["c4"]["status"] == "refuted"  # a copy of a 3x3 one
    assert claims["c5"]["status"] == "confirmed"
    assert claims["c5"]["why"] == "raised RecursionError (root cause RecursionError)"
    assert claims["c6"]["status"] == "refuted"  # fails, but not with AttributeError


def _out_other(dtype_after: str, kept: bool, values: float) -> dict[str, Any]:
    return {
        "out_dtype_before": "float64",
        "out_values_before": [7.0],
        "result": {"dtype": dtype_after, "shape": [1], "values": [values]},
        "ret_is_out": True,
        "out_dtype": dtype_after,
        "out_values": [values],
        "out_buffer_kept": kept,
        "old_buffer_values": [values if kept else 7.0],
    }


def test_a_fix_that_only_removes_the_claimed_dtype_change_corrects_the_claim() -> None:
    plain = {"plan": "float matrix", "result": {"dtype": "float32", "shape": [1], "values": [0.5]}}
    before = {"plain": plain, "out_other": _out_other("float32", False, 0.5)}
    after = {"plain": plain, "out_other": _out_other("float64", True, 0.5)}
    assert vf.verdict(before, after, ["IVY002"])[0] == "corrects the claim only"
    # a rule that claims no such defect (a decorator reorder) may not change it
    assert vf.verdict(before, after, ["IVY005"])[0] == "differs"
    # nor may the fix change the values
    wrong = {"plain": plain, "out_other": _out_other("float64", True, 0.25)}
    assert vf.verdict(before, wrong, ["IVY002"])[0] == "differs"


def _out_same(kept: bool, values: float, ret_is_out: bool = True) -> dict[str, Any]:
    return {
        "out_dtype_before": "float32",
        "out_values_before": [7.0],
        "result": {"dtype": "float32", "shape": [1], "values": [values]},
        "ret_is_out": ret_is_out,
        "out_dtype": "float32",
        "out_values": [values],
        "out_buffer_kept": kept,
        "old_buffer_values": [values if kept else 7.0],
    }


def test_a_fix_that_only_keeps_out_s_own_buffer_corrects_the_claim() -> None:
    """2023-03 Ivy's native path rebinds `out.data` even for an `out` of the result's dtype:
    removing a dead attribute (IVY015, IVY002) makes `out` keep its buffer, same values."""
    plain = {"plan": "float matrix", "result": {"dtype": "float32", "shape": [1], "values": [0.5]}}
    before = {"plain": plain, "out_same": _out_same(False, 0.5)}
    after = {"plain": plain, "out_same": _out_same(True, 0.5)}
    assert vf.verdict(before, after, ["IVY015"])[0] == "corrects the claim only"
    assert vf.verdict(before, after, ["IVY005"])[0] == "differs"
    assert vf.verdict(before, {**after, "out_same": _out_same(True, 0.25)}, ["IVY015"])[0] == (
        "differs"
    )
    # a returned object that is no longer `out` itself is a difference, not a correction
    other = {"plain": plain, "out_same": _out_same(True, 0.5, ret_is_out=False)}
    assert vf.verdict(before, other, ["IVY015"])[0] == "differs"


def test_values_that_vary_between_equal_calls_are_compared_on_dtype_and_shape() -> None:
    """`empty`: uninitialized memory, other values on every call."""
    before = {"plain": {"result": {"dtype": "float32", "shape": [3], "values": [1.0, 2.0, 3.0]}}}
    after = {"plain": {"result": {"dtype": "float32", "shape": [3], "values": [0.0, 0.0, 9.0]}}}
    assert vf.verdict(before, after)[0] == "differs"
    assert vf.verdict({**before, "values_vary": True}, after)[0] == "same"
    wider = {"plain": {"result": {"dtype": "float64", "shape": [3], "values": [0.0, 0.0, 9.0]}}}
    assert vf.verdict({**before, "values_vary": True}, wider)[0] == "differs"


def test_an_unsafe_fix_fails_only_when_a_call_that_returned_now_raises() -> None:
    """IVY001 on PyTorch `ldexp`: with the attribute, a float64 `out` hit an internal assert."""
    plain = {"plan": "float matrix", "result": {"dtype": "float32", "shape": [1], "values": [0.5]}}
    before = {"plain": plain, "out_other": _out_other("float64", True, 0.5)}
    raised = {**_out_other("float64", True, 7.0), "result": {"raises": "RuntimeError"}}
    after = {"plain": plain, "out_other": raised}
    assert "out_other: now raises RuntimeError" in vf.breaks_a_call(before, after)
    assert (
        vf.breaks_a_call(before, {"plain": plain, "out_other": _out_other("float32", False, 0.5)})
        == ""
    )


def test_the_review_keeps_an_optional_runtime_key() -> None:
    line = (
        '{"path": "ivy/a.py", "row": 1, "col": 1, "code": "IVY002", "verdict": "true", '
        '"reason": "why", "message": "m", "runtime": "confirmed"}\n'
    )
    (entry,) = eco.parse_snapshot(line)
    assert entry.runtime == "confirmed"
    assert eco.render_snapshot([entry]) == line
    kept = eco.updated([entry], [eco.Finding("ivy/a.py", 1, 1, "IVY002", "m")])
    assert kept[0].runtime == "confirmed"
    changed = eco.updated([entry], [eco.Finding("ivy/a.py", 1, 1, "IVY002", "new claim")])
    assert changed[0].runtime is None
    with pytest.raises(eco.SnapshotError):
        eco.parse_snapshot(line.replace('"confirmed"', '"maybe"'))
    summary = vf.claim_summary(
        [
            {"path": "ivy/a.py", "row": 1, "col": 1, "code": "IVY002", "status": "confirmed"},
            {"path": "ivy/a.py", "row": 1, "col": 1, "code": "IVY002", "status": "refuted"},
            {"path": "ivy/b.py", "row": 2, "col": 1, "code": "IVY003", "status": "not runnable"},
        ]
    )
    assert summary == {("ivy/a.py", 1, 1, "IVY002"): "refuted"}


BACKEND_FILE = """\
import numpy as np


def trapz(y, /, *, x=None, dx=1.0, axis=-1, out=None):
    return np.trapezoid(y, x=x, dx=dx, axis=axis)


trapz.support_native_out = False
"""

API_FILE = """\
from ivy.func_wrapper import handle_exceptions, handle_nestable, handle_out_argument
from ivy.utils.backend import current_backend


@handle_nestable
@handle_exceptions
@handle_out_argument
def trapz(y, /, *, x=None, dx=1.0, axis=-1, out=None):
    return current_backend(y).trapz(y, x=x, dx=dx, axis=axis, out=out)
"""


WRAPPER_FILE = """\
import functools

import ivy


def handle_out_argument(fn):
    handle_out_in_backend = hasattr(fn, "support_native_out")

    @functools.wraps(fn)
    def _handle_out_argument(*args, out=None, **kwargs):
        if out is None:
            return fn(*args, out=out, **kwargs)
        if handle_out_in_backend:
            ret = fn(*args, out=ivy.to_native(out), **kwargs)
            ivy.inplace_update(out, ret)
            return out
        ret = fn(*args, **kwargs)
        return ivy.inplace_update(out, ivy.astype(ret, ivy.dtype(out)))

    return _handle_out_argument
"""
"""Ivy's wrapper as the snapshot has it (it tests the attribute's presence): IVY015 reads it."""


def test_each_rule_fixes_a_copy_of_its_own(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    backend = corpus / "ivy" / "functional" / "backends" / "numpy" / "elementwise.py"
    api = corpus / "ivy" / "functional" / "ivy" / "elementwise.py"
    wrapper = corpus / "ivy" / "func_wrapper.py"
    for path, text in ((backend, BACKEND_FILE), (api, API_FILE), (wrapper, WRAPPER_FILE)):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    findings, targets, trees = vf.collect(corpus, scratch)
    assert {f["code"] for f in findings} == {"IVY005", "IVY015"}
    assert sorted(trees) == ["IVY005", "IVY015"]
    assert [(t.path, t.unit, t.tree, t.codes) for t in targets] == [
        ("ivy/functional/backends/numpy/elementwise.py", "trapz", "IVY015", ["IVY015"]),
        ("ivy/functional/ivy/elementwise.py", "trapz", "IVY005", ["IVY005"]),
    ]
    # each copy holds its own rule's fix only; the corpus is untouched
    fixed_backend = (trees["IVY015"] / backend.relative_to(corpus)).read_text()
    assert "support_native_out" not in fixed_backend
    assert (trees["IVY015"] / api.relative_to(corpus)).read_text() == API_FILE
    assert (trees["IVY005"] / backend.relative_to(corpus)).read_text() == BACKEND_FILE
    assert backend.read_text() == BACKEND_FILE and api.read_text() == API_FILE
    assert targets[0].backends(["numpy", "torch"]) == ["numpy"]
    assert targets[1].backends(["numpy", "torch"]) == ["numpy", "torch"]


def test_functional_api_files_are_the_ones_ivycheck_reads_as_api(tmp_path: Path) -> None:
    """2022 Ivy kept API functions in ivy/functional/experimental/: a fix there is run as
    `ivy.<name>` too, because ivycheck reads the file as functional API by its code."""
    files = {
        "ivy/functional/experimental/creation.py": (
            "@handle_out_argument\n"
            "def hann_window(size, *, out=None):\n"
            "    return current_backend().hann_window(size, out=out)\n"
        ),
        "ivy/functional/experimental/helpers.py": "def window(size):\n    return size\n",
        "ivy/functional/ivy/elementwise.py": "def tan(x):\n    return x\n",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    (tmp_path / "pyproject.toml").write_text("")
    assert vf.functional_api_paths(tmp_path) == {
        "ivy/functional/experimental/creation.py",
        "ivy/functional/ivy/elementwise.py",
    }
    target = vf.Target("ivy/functional/experimental/creation.py", "hann_window", api=True)
    assert target.why_not_runnable() is None
    assert vf.Target("ivy/functional/experimental/helpers.py", "window").why_not_runnable()


def test_what_a_failing_call_leaves_in_out_is_not_compared() -> None:
    """PyTorch `any` with a 0-d bool `out` raises part-way, leaving other values each run."""
    plain = {"plan": "float matrix", "result": {"dtype": "bool", "shape": [], "values": True}}
    raised = {"raises": "IvyBackendException", "root": "RuntimeError", "message": "resize"}

    def failed(values: list[bool]) -> dict[str, Any]:
        return {"out_dtype_before": "bool", "result": raised, "out_values": values}

    before = {"plain": plain, "out_same": failed([True, False, False])}
    after = {"plain": plain, "out_same": failed([True, True, True])}
    assert vf.verdict(before, after, ["IVY005"])[0] == "same"
    other = {**raised, "raises": "TypeError"}
    changed = {"plain": plain, "out_same": {**failed([True]), "result": other}}
    assert vf.verdict(before, changed, ["IVY005"])[0] == "differs"
