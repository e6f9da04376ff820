"""Fix safety proven by execution: ``--fix`` on the real Ivy snapshot, run before and after.

The static fix-safety test (``tests/ecosystem/test_fix_safety.py``) proves that a safe fix
parses, converges and creates no finding. It cannot see a fix that changes what a function
computes (issue 23: removing ``support_native_out`` from a scatter that accumulates into
``out``). This harness runs the code:

Runs on each shared snapshot in turn (``CORPORA``: Ivy 2023-09 and 2023-03, each with its
own review file), or on one (``--only NAME``, ``--corpus PATH``).

1. copies the snapshot's ``ivy/`` package to a temporary folder (deleted afterwards; the
   snapshot is read in place and never copied into the repository), runs ``ivycheck --format
   json`` on it for the findings, then, per rule with safe fixes, ``ivycheck --fix --select
   CODE`` on a copy of its own (so that a difference is charged to the rule that made it);
2. finds every function each rule's fix changed (a top-level ``def`` with its decorators, or
   a module-level ``name.attribute = ...`` of it) and the safe findings in it;
3. per backend (NumPy, PyTorch; JAX, TensorFlow and Paddle where they import), starts one
   process on the original tree and one per fixed copy (``scripts/verify_fixes_worker.py``,
   each with only its tree on ``sys.path``), which call each changed function's public
   ``ivy.<name>`` with inputs generated from its signature: without ``out``, with an ``out`` of
   the result's dtype and with one of another dtype, both filled with a sentinel;
4. compares the two: result values (to a relative 1e-6), dtypes, exception types, whether the
   function returned ``out`` itself, ``out``'s dtype and values, whether ``out`` kept its native
   buffer and what that buffer holds;
5. checks at run time, on the original tree, the consequence each correctness finding's message
   states (``out`` silently changes dtype, the attribute acts as ``True``, a return leaves the
   buffer untouched, nothing writes ``out``, every call raises ``AttributeError``, the result is
   a view), and records confirmed / refuted / not runnable, with why.

Verdict per changed function and backend: **same** (every observation equal), **corrects the
claim only** (the only difference is in the call with an ``out`` of another dtype, where before
the fix ``out`` changed dtype, exactly as the finding says, and after it ``out`` keeps its dtype
and buffer and holds the same values, cast: the fix removes the defect it names and nothing
else), **differs** (anything else: the fix is not safe), or **not runnable** (why). Exit status
1 when a safe fix differs or a claim is refuted; 2 when the harness cannot run.

    .venv/bin/python scripts/verify_fixes.py                   # the full run (make verify-fixes)
    .venv/bin/python scripts/verify_fixes.py --json report.json --markdown report.md
    .venv/bin/python scripts/verify_fixes.py --update-review   # "runtime" keys in the review
    .venv/bin/python scripts/verify_fixes.py --review-from report.json   # the same, no run
    .venv/bin/python scripts/verify_fixes.py --strict   # a fix that corrects its claim fails too
    .venv/bin/python scripts/verify_fixes.py --backend jax --backend tensorflow \
        --worker-python build/verify-venv/bin/python   # make verify-fixes-backends
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPORA = ("ivy-975c8fc", "ivy-9affbcc")
"""The shared snapshots, each checked against its own review (``<name>.review.jsonl``)."""
CORPUS_NAME = CORPORA[0]
CORPORA_ROOT = REPO_ROOT.parent / "shared" / "corpora"
DEFAULT_CORPUS = CORPORA_ROOT / CORPUS_NAME
WORKER = Path(__file__).with_name("verify_fixes_worker.py")
REVIEW = REPO_ROOT / "tests" / "ecosystem" / f"{CORPUS_NAME}.review.jsonl"


def review_for(corpus: Path) -> Path:
    """The review file of a corpus (by its folder's name)."""
    return REPO_ROOT / "tests" / "ecosystem" / f"{corpus.name}.review.jsonl"


BACKENDS = ("numpy", "torch", "jax", "tensorflow", "paddle")
"""Backends tried, in order; each that fails to import is reported with the reason."""
WORKER_TIMEOUT = 1800
RTOL = 1e-6

Json = dict[str, Any]


# -- the changed functions -----------------------------------------------------------------


def _units(tree: ast.Module, prefix: str = "") -> dict[str, list[ast.stmt]]:
    """Statements per function: its ``def`` (decorators included), ``name.attr = ...`` lines.

    Methods are ``Class.method``; every other statement belongs to ``<module>``.
    """
    units: dict[str, list[ast.stmt]] = {}
    for node in tree.body:
        name = f"{prefix}<module>"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + node.name
        elif isinstance(node, ast.ClassDef):
            for inner, stmts in _units(ast.Module(body=node.body, type_ignores=[]), "").items():
                if inner != "<module>":
                    units.setdefault(f"{prefix}{node.name}.{inner}", []).extend(stmts)
                else:
                    units.setdefault(f"{prefix}{node.name}", []).extend(stmts)
            continue
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    name = prefix + target.value.id
                    break
        units.setdefault(name, []).append(node)
    return units


def _span(node: ast.stmt) -> tuple[int, int]:
    start = node.lineno
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        start = min([start, *(d.lineno for d in node.decorator_list)])
    return start, node.end_lineno or node.lineno


def changed_units(before: str, after: str) -> list[str]:
    """The units (functions) whose statements differ between two versions of a file."""
    old, new = _units(ast.parse(before)), _units(ast.parse(after))
    names = sorted(set(old) | set(new))

    def dump(stmts: Iterable[ast.stmt]) -> list[str]:
        return [ast.dump(s, include_attributes=False) for s in stmts]

    return [n for n in names if dump(old.get(n, [])) != dump(new.get(n, []))]


def unit_at(source: str, row: int) -> str | None:
    """The unit whose statements cover line ``row`` (the innermost: methods before classes)."""
    best: tuple[int, str] | None = None
    for name, stmts in _units(ast.parse(source)).items():
        for stmt in stmts:
            start, end = _span(stmt)
            if start <= row <= end and (best is None or end - start < best[0]):
                best = (end - start, name)
    return best[1] if best else None


def backend_of(path: str) -> str | None:
    """``numpy`` for ``ivy/functional/backends/numpy/...``; None elsewhere."""
    parts = PurePosixPath(path).parts
    if len(parts) > 4 and parts[:3] == ("ivy", "functional", "backends"):
        return parts[3]
    return None


def is_api(path: str) -> bool:
    return PurePosixPath(path).parts[:3] == ("ivy", "functional", "ivy")


@dataclass
class Target:
    """A function a safe fix changed, and where it is run."""

    path: str
    unit: str
    tree: str = ""
    """The rule code whose fixes alone made the fixed copy this function is run in."""
    codes: list[str] = field(default_factory=list)
    findings: list[Json] = field(default_factory=list)
    api: bool = False
    """ivycheck reads the file as functional API (``--show-files``: a glob, or its code
    dispatching to the current backend, as 2022 Ivy's ``ivy/functional/experimental/``)."""

    @property
    def name(self) -> str:
        return self.unit.split(".")[-1]

    def backends(self, available: Sequence[str]) -> list[str]:
        backend = backend_of(self.path)
        return [backend] if backend else list(available)

    def why_not_runnable(self) -> str | None:
        if "." in self.unit or self.unit == "<module>":
            return f"`{self.unit}` is not a module-level function of the functional API"
        if self.name.startswith("_"):
            return f"`{self.name}` is a private helper (no public `ivy.{self.name}`)"
        if backend_of(self.path) is None and not (self.api or is_api(self.path)):
            return "not a backend or functional-API file"
        return None


# -- claims --------------------------------------------------------------------------------


CLAIM_CHECKS: tuple[tuple[str, str, str], ...] = (
    ("IVY002", "silently changes dtype", "dtype_change"),
    ("IVY002", "copies the result into `out`", "copied_into_out"),
    ("IVY015", "acts as `support_native_out = True`", "acts_as_true"),
    ("IVY015", "is read by nothing", "read_by_nothing"),
    ("IVY003", "copies the result into `out`", "path_copied_into_out"),
    ("IVY003", "never writes `out`", "never_writes_out"),
    ("IVY003", "silently changes dtype", "path_dtype_change"),
    ("IVY016", "nothing writes it", "out_not_written"),
    ("IVY017", "every call raises AttributeError", "raises_attribute_error"),
    ("IVY017", "every call fails", "raises"),
    (
        "IVY011",
        "returns a view on empty, 0-d or single-element input only",
        "returns_view_degenerate",
    ),
    ("IVY011", "returns a view", "returns_view"),
    ("IVY005", "style only: with a backend set", "rewrapped_in_list_order"),
    ("IVY013", "nothing writes `out`", "out_not_written"),
)
"""(code, words of the message, check): the run-time consequence a message states."""

STATIC = {
    "IVY005": (
        "an error states no consequence; a warning's 'no result changes, only errors raised "
        "by @X itself ...' was checked by hand (docs/verify-fixes.md)"
    ),
    "IVY006": "a data-class method (the harness calls functional-API functions only)",
    "IVY008": "about the signature (positional `out`); the public API passes `out` by keyword",
    "IVY009": "about an annotation",
    "IVY010": "about dead code in a compositional function; its results are not claimed wrong",
    "IVY013": "about the form of `to_skip` (a substring test), no result stated",
}
"""Why a correctness finding without a recognised run-time claim is not run."""

DEAD_CODE_WHY = (
    "dead code on this backend (no result is claimed wrong); the fix's run shows whether "
    "removing it changes anything"
)
"""Why a dead-code finding (IVY002 where the wrapper never hands the backend ``out``'s
buffer) has no claim to run: its fix is checked like any other."""

PERFORMANCE = {"IVY001"}
"""Codes whose findings are not correctness claims (IVY001: a dead native path, a cost)."""


def claim_check(finding: Json) -> str | None:
    for code, words, check in CLAIM_CHECKS:
        if finding["code"] == code and words in finding["message"]:
            return check
    return None


_NAME = re.compile(r"^`(?:current_backend\(\.\.\.\)\.)?([A-Za-z_][A-Za-z0-9_]*)")


def claim_function(finding: Json, source: str) -> str | None:
    """The public function a finding is about: the name it starts with, else its unit."""
    match = _NAME.match(finding["message"])
    if match:
        return match.group(1)
    unit = unit_at(source, finding["location"]["row"])
    return unit.split(".")[-1] if unit else None


def claim_backends(finding: Json, check: str, available: Sequence[str]) -> list[str]:
    """Where a claim is run: the finding's backend; the backends its message names."""
    backend = backend_of(finding["filename"])
    if backend:
        return [backend]
    if check in ("returns_view", "returns_view_degenerate"):
        named = re.findall(r"\b(numpy|torch): ", finding["message"])
        return [b for b in named if b in available] or named
    if finding["code"] == "IVY013":  # "on jax, torch, whose own implementation ignores `out`"
        named_list = re.search(r"\bon ([a-z, ]+), whose own implementation", finding["message"])
        if named_list:
            return [b for b in available if b in named_list.group(1).split(", ")]
        return [b for b in available if b in finding.get("own", ())]
    return list(available)


def own_backends(corpus: Path, name: str) -> list[str]:
    """The backends whose folder defines ``def name(`` at module level."""
    pattern = re.compile(rf"^def {re.escape(name)}\(", re.MULTILINE)
    found = []
    for folder in sorted((corpus / "ivy" / "functional" / "backends").iterdir()):
        if folder.is_dir() and any(
            pattern.search(p.read_text(encoding="utf-8")) for p in folder.rglob("*.py")
        ):
            found.append(folder.name)
    return found


# -- running -------------------------------------------------------------------------------


def run_ivycheck(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "ivycheck", "--no-cache", "--exit-zero", "--quiet", *args]
    return subprocess.run([*command, "ivy"], cwd=root, capture_output=True, text=True, check=False)


def run_worker(
    tree: Path, job: Json, scratch: Path, label: str, python: str = sys.executable
) -> Json:
    """One process of ``python`` on ``tree`` (only it on ``sys.path``) running ``job``."""
    job_path, result_path = scratch / f"{label}.job.json", scratch / f"{label}.result.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "PYTHONWARNINGS": "ignore",
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "JAX_PLATFORMS": "cpu",
        # 64-bit types, as NumPy and PyTorch have them: without this JAX makes a float32 array
        # when float64 is asked for, and an `out` of another dtype cannot be made.
        "JAX_ENABLE_X64": "1",
        "CUDA_VISIBLE_DEVICES": "",
        "OMP_NUM_THREADS": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    proc = subprocess.run(
        [python, str(WORKER), str(job_path), str(result_path)],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=WORKER_TIMEOUT,
    )
    if proc.returncode != 0 or not result_path.exists():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"backend_error": f"worker exited {proc.returncode}: {' | '.join(tail)}"}
    result: Json = json.loads(result_path.read_text(encoding="utf-8"))
    return result


# -- comparing -----------------------------------------------------------------------------


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=RTOL, abs_tol=RTOL)
    return bool(a == b)


def same(a: Any, b: Any) -> bool:
    """Observations equal, numbers to ``RTOL``, exception messages ignored (types compared)."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = (set(a) | set(b)) - {"message"}
        return all(same(a.get(k), b.get(k)) for k in keys)
    if isinstance(a, list) and isinstance(b, list) and any(isinstance(x, dict) for x in (*a, *b)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return _close(a, b)


def _raised_alike(old: Any, new: Any) -> bool:
    """A call with ``out`` that raised the same exception before and after: what it left in
    ``out`` is not a result (PyTorch's ``any`` resizing a 0-d bool ``out`` fails part-way,
    leaving other values on each run), so only the exception is compared."""
    if not (isinstance(old, dict) and isinstance(new, dict) and "out_dtype_before" in old):
        return False
    raised_old, raised_new = (old.get("result") or {}), (new.get("result") or {})
    return "raises" in raised_old and same(
        {k: raised_old.get(k) for k in ("raises", "root")},
        {k: raised_new.get(k) for k in ("raises", "root")},
    )


def differences(before: Json, after: Json) -> list[str]:
    """The cases (plain, out_same, out_other) whose observations differ, with the fields."""
    cases = []
    for case in sorted((set(before) | set(after)) - {"not_runnable"}):
        old, new = before.get(case), after.get(case)
        if same(old, new) or _raised_alike(old, new):
            continue
        if isinstance(old, dict) and isinstance(new, dict):
            keys = sorted(
                k for k in (set(old) | set(new)) - {"message"} if not same(old.get(k), new.get(k))
            )
            cases.append(f"{case}: {', '.join(keys)}")
        else:
            cases.append(case)
    return cases


def _leaves(seen: Json) -> list[Json]:
    items: list[Json] = seen.get("items", [seen])
    return items


def corrects_claim_only(before: Json, after: Json) -> bool:
    """The only differences are in the calls with ``out``, each a correction: ``out`` of
    another dtype changed dtype before and keeps it after (:func:`_keeps_dtype_now`), or
    ``out`` (of either dtype) got a new buffer before and keeps its own after, holding the
    same values (:func:`_keeps_buffer_now`); at least one such correction."""
    if differences(
        {k: v for k, v in before.items() if k not in ("out_other", "out_same")},
        {k: v for k, v in after.items() if k not in ("out_other", "out_same")},
    ):
        return False
    corrected = False
    for case in ("out_same", "out_other"):
        old, new = before.get(case), after.get(case)
        if same(old, new):
            continue
        # A JAX or TensorFlow array is immutable: there even an `out` of the result's dtype
        # gets a new native array, and "keeps its buffer" cannot be asked of the other's.
        mutable = _keeps_buffer(after.get("out_same"))
        if not (
            _keeps_buffer_now(old, new)
            or (case == "out_other" and _keeps_dtype_now(old, new, mutable))
        ):
            return False
        corrected = True
    return corrected


def _keeps_dtype_now(old: Any, new: Any, mutable: bool) -> bool:
    """``out`` of another dtype: came back with the result's dtype before; after, keeps
    its dtype (and its buffer, where the same-dtype ``out`` can) and holds the same values,
    cast, and is returned."""
    if not isinstance(old, dict) or not isinstance(new, dict) or "out_dtype_before" not in new:
        return False
    wanted = new["out_dtype_before"]
    wanted_list = wanted if isinstance(wanted, list) else [wanted]
    old_leaves, new_leaves = _leaves(old), _leaves(new)
    if len(old_leaves) != len(new_leaves) or len(new_leaves) != len(wanted_list):
        return False
    if not _returns_out(new):
        return False
    changed_before = any(
        leaf.get("out_dtype") != dtype for leaf, dtype in zip(old_leaves, wanted_list, strict=True)
    )
    for leaf_old, leaf_new, dtype in zip(old_leaves, new_leaves, wanted_list, strict=True):
        if leaf_new.get("out_dtype") != dtype:
            return False
        if mutable and not leaf_new.get("out_buffer_kept"):
            return False
        if not _close_cast(leaf_old.get("out_values"), leaf_new.get("out_values")):
            return False
    return changed_before


def _keeps_buffer_now(old: Any, new: Any) -> bool:
    """``out``: a new buffer before; after, its own buffer, the same dtype as before,
    holding the same values (cast), and the same object returned. 2023-03 Ivy's native path
    ends ``out.data = ivy.to_native(ret)``: a function the wrapper treats as native (IVY015's
    ``= False``, IVY002's dead attribute) hands ``out`` a new buffer whatever its dtype,
    which the fix (the wrapper's ``inplace_update`` path) corrects."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return False
    if "out_dtype_before" not in old or "out_dtype_before" not in new:
        return False
    if _returns_out(old) != _returns_out(new):
        return False
    old_leaves, new_leaves = _leaves(old), _leaves(new)
    if len(old_leaves) != len(new_leaves):
        return False
    return all(
        lo.get("out_dtype") == ln.get("out_dtype")
        and _close_cast(lo.get("out_values"), ln.get("out_values"))
        and not lo.get("out_buffer_kept")
        and ln.get("out_buffer_kept")
        for lo, ln in zip(old_leaves, new_leaves, strict=True)
    )


def _returns_out(observation: Json) -> bool:
    """The call returned ``out`` itself, or (several results) a sequence of ``out``'s own
    items: a tuple ``out`` may come back as a new list holding the same arrays."""
    return bool(observation.get("ret_is_out") or observation.get("ret_items_are_out"))


def _keeps_buffer(observation: Any) -> bool:
    """Whether every ``out`` of the call kept its native buffer (False when it did not run)."""
    if not isinstance(observation, dict) or "out_dtype_before" not in observation:
        return False
    return all(leaf.get("out_buffer_kept") for leaf in _leaves(observation))


def _close_cast(a: Any, b: Any) -> bool:
    """Values equal once cast to the coarser of two float dtypes (float32's precision)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close_cast(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)
    return bool(a == b)


def exercised(observation: Json) -> bool:
    """Whether some call returned (not every generated call raised)."""
    plain = observation.get("plain", {})
    return "result" in plain and "raises" not in plain["result"]


CORRECTING_CODES = frozenset({"IVY002", "IVY015"})
"""Rules whose finding states the defect "corrects the claim only" allows the fix to remove:
IVY002 says `out` silently changes dtype; IVY015 that the attribute acts as ``True`` (which,
on a function that ignores the native buffer, is IVY002's defect)."""


def _shape_only(observation: Json) -> Json:
    """The plain call's observation without values (the calls with ``out`` dropped)."""

    def strip(seen: Any) -> Any:
        if isinstance(seen, dict):
            return {k: strip(v) for k, v in seen.items() if k != "values"}
        if isinstance(seen, list):
            return [strip(v) for v in seen]
        return seen

    return {"plain": strip(observation.get("plain", {}))}


def verdict(before: Json, after: Json, codes: Iterable[str] = ()) -> tuple[str, str]:
    if "not_runnable" in before.get("plain", before):
        return "not runnable", str(before.get("plain", before).get("not_runnable"))
    if before.get("values_vary") or after.get("values_vary"):
        # Uninitialized memory (`empty`): values differ between equal calls on one tree, so
        # only the plain call's dtype and shape are compared (the worker's `_values_vary`).
        before, after = _shape_only(before), _shape_only(after)
    diff = differences(before, after)
    if not diff:
        if exercised(before):
            return "same", ""
        result = before.get("plain", {}).get("result", {})
        return "same", f"every generated input raises {result.get('raises')} before and after"
    if CORRECTING_CODES & set(codes) and corrects_claim_only(before, after):
        return "corrects the claim only", "; ".join(diff)
    return "differs", "; ".join(diff)


# -- the run -------------------------------------------------------------------------------


@dataclass
class Report:
    corpus: str
    backends: dict[str, str] = field(default_factory=dict)
    stubbed: list[str] = field(default_factory=list)
    safe_fixes: int = 0
    fixes: list[Json] = field(default_factory=list)
    claims: list[Json] = field(default_factory=list)
    seconds: float = 0.0

    def failures(self, *, strict: bool = False) -> list[str]:
        """Differing fixes and refuted claims; ``strict``: corrections of a claim count too."""
        failing = (
            ("differs", "corrects the claim only", "breaks a call", "unsafe fix differs")
            if strict
            else ("differs", "breaks a call")
        )
        bad = [
            f"fix {f['verdict']}: {f['backend']} {f['path']} {f['function']} ({f['detail']})"
            for f in self.fixes
            if f["verdict"] in failing
        ]
        bad += [
            f"claim refuted: {c['backend']} {c['path']}:{c['row']} {c['code']} {c['function']} "
            f"({c['why']})"
            for c in self.claims
            if c["status"] == "refuted"
        ]
        return bad

    def as_json(self) -> Json:
        return {
            "corpus": self.corpus,
            "backends": self.backends,
            "stubbed": self.stubbed,
            "safe_fixes": self.safe_fixes,
            "fix_counts": counts(self.fixes, "verdict"),
            "claim_counts": counts(self.claims, "status"),
            "fixes": self.fixes,
            "claims": self.claims,
            "seconds": round(self.seconds, 1),
        }


def counts(rows: Iterable[Mapping[str, Any]], key: str) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = {}
    for row in rows:
        table.setdefault(row["backend"], Counter())[row[key]] += 1
    return {backend: dict(sorted(c.items())) for backend, c in sorted(table.items())}


def collect(
    corpus: Path, scratch: Path, unsafe: bool = False
) -> tuple[list[Json], list[Target], dict[str, Path]]:
    """Check a copy; fix one copy per rule (its safe fixes alone; with ``unsafe``, also each
    rule's unsafe fixes, ``--unsafe-fixes``); the changed functions.

    One copy per rule, so that a difference is charged to the rule whose fix made it: with
    every fix applied at once, a functional-API function whose only fix is a decorator
    reorder also changes when a backend function it calls loses an attribute.
    """
    checked_root = scratch / "checked"
    shutil.copytree(corpus / "ivy", checked_root / "ivy")
    checked = run_ivycheck(checked_root, "--format", "json")
    if checked.returncode != 0:
        raise RuntimeError(f"ivycheck failed: {checked.stderr.strip()[-500:]}")
    findings: list[Json] = json.loads(checked.stdout)
    api_paths = functional_api_paths(checked_root)
    kinds = ("safe", "unsafe") if unsafe else ("safe",)
    safe = [f for f in findings if f.get("fix") and f["fix"]["applicability"] in kinds]
    targets: dict[tuple[str, str, str], Target] = {}
    trees: dict[str, Path] = {}
    for code in sorted({f["code"] for f in safe}):
        root = scratch / f"fixed-{code}"
        shutil.copytree(corpus / "ivy", root / "ivy")
        fixing = run_ivycheck(
            root, "--fix", *(["--unsafe-fixes"] if unsafe else []), "--select", code
        )
        if fixing.returncode != 0:
            raise RuntimeError(f"ivycheck --fix --select {code} failed: {fixing.stderr[-500:]}")
        trees[code] = root
        mine = [f for f in safe if f["code"] == code]
        for path in sorted({f["filename"] for f in mine} | set(_changed_files(corpus, root))):
            before = (corpus / path).read_text(encoding="utf-8")
            after = (root / path).read_text(encoding="utf-8")
            for unit in changed_units(before, after):
                targets.setdefault((path, unit, code), Target(path, unit, code))
            for finding in (f for f in mine if f["filename"] == path):
                unit = unit_at(before, finding["location"]["row"]) or "<module>"
                target = targets.setdefault((path, unit, code), Target(path, unit, code))
                target.codes.append(finding["code"])
                target.findings.append(finding)
    for target in targets.values():
        target.api = target.path in api_paths
    ordered = sorted(targets.values(), key=lambda t: (t.path, t.unit, t.tree))
    return findings, ordered, trees


def functional_api_paths(root: Path) -> set[str]:
    """The files ``ivycheck --show-files`` places in the functional API under ``root``."""
    shown = run_ivycheck(root, "--show-files")
    return {
        line.split("\t")[0]
        for line in shown.stdout.splitlines()
        if line.count("\t") >= 1 and line.split("\t")[1] == "functional API"
    }


def _changed_files(corpus: Path, fixed_root: Path) -> list[str]:
    changed = []
    for path in sorted((fixed_root / "ivy").rglob("*.py")):
        relative = path.relative_to(fixed_root).as_posix()
        original = corpus / relative
        if not original.exists() or original.read_bytes() != path.read_bytes():
            changed.append(relative)
    return changed


def plan_claims(findings: list[Json], corpus: Path) -> list[Json]:
    claims = []
    for number, finding in enumerate(findings):
        code = finding["code"]
        if code in PERFORMANCE:
            continue
        row = {
            "id": f"c{number}",
            "path": finding["filename"],
            "row": finding["location"]["row"],
            "col": finding["location"]["column"],
            "code": code,
            "message": finding["message"],
        }
        check = claim_check(finding)
        if check is None:
            row["check"] = None
            dead = finding.get("category") == "dead-code" and code not in STATIC
            row["why"] = STATIC.get(
                code, DEAD_CODE_WHY if dead else "no run-time consequence recognised in the message"
            )
            claims.append(row)
            continue
        source = (corpus / finding["filename"]).read_text(encoding="utf-8")
        row["check"] = check
        row["function"] = claim_function(finding, source)
        if code == "IVY013" and row["function"]:
            row["own"] = own_backends(corpus, row["function"])
        if check in ("never_writes_out", "path_copied_into_out", "path_dtype_change"):
            match = re.search(r"the return on line (\d+)", finding["message"])
            row["line"] = int(match.group(1)) if match else finding["location"]["row"]
        claims.append(row)
    return claims


def run(
    corpus: Path, backends: Sequence[str], python: str = sys.executable, unsafe: bool = False
) -> Report:
    """The whole run; ``python`` runs the workers (ivycheck itself runs in this interpreter);
    ``unsafe``: the unsafe fixes too (:func:`breaks_a_call` is their standard)."""
    started = time.perf_counter()
    report = Report(corpus=str(corpus))
    with tempfile.TemporaryDirectory(prefix="ivycheck-verify-fixes-") as tmp:
        scratch = Path(tmp)
        findings, targets, trees = collect(corpus, scratch, unsafe)
        report.safe_fixes = sum(
            1 for f in findings if f.get("fix") and f["fix"]["applicability"] == "safe"
        )
        claims = plan_claims(findings, corpus)
        runnable = [t for t in targets if t.why_not_runnable() is None]
        wanted = set(backends)
        per_backend: dict[str, Json] = {}
        for backend in backends:
            names = sorted({t.name for t in runnable if backend in t.backends(backends)})
            jobs = [
                {
                    "id": c["id"],
                    "function": c["function"],
                    "check": c["check"],
                    "file": str(corpus / c["path"]),
                    "line": c.get("line", c["row"]),
                }
                for c in claims
                if c.get("check")
                and backend in claim_backends(_as_finding(c), c["check"], backends)
            ]
            if not names and not jobs:
                continue
            print(f"{backend}: {len(names)} functions, {len(jobs)} claims", file=sys.stderr)
            original = run_worker(
                corpus,
                {"backend": backend, "functions": names, "claims": jobs},
                scratch,
                f"{backend}-original",
                python,
            )
            per_backend[backend] = {"original": original}
            report.stubbed = sorted(set(report.stubbed) | set(original.get("stubbed", [])))
            if "backend_error" in original:
                report.backends[backend] = f"not runnable: {original['backend_error']}"
                continue
            report.backends[backend] = "ran" + _versions(original.get("versions", {}))
            per_backend[backend]["fixed"] = {}
            for code, root in trees.items():
                mine = sorted(
                    {t.name for t in runnable if t.tree == code and backend in t.backends(backends)}
                )
                if mine:
                    per_backend[backend]["fixed"][code] = run_worker(
                        root,
                        {"backend": backend, "functions": mine},
                        scratch,
                        f"{backend}-{code}",
                        python,
                    )
        for target in targets:
            for backend in target.backends(backends):
                if backend not in wanted:
                    continue
                report.fixes.append(_fix_row(target, backend, per_backend.get(backend)))
        for claim in claims:
            report.claims.extend(
                row
                for row in _claim_rows(claim, per_backend, backends)
                if row["backend"] in wanted or row["backend"] == "-"
            )
    report.seconds = time.perf_counter() - started
    return report


def _versions(versions: Mapping[str, str]) -> str:
    """`` (jax 0.4.13, numpy 1.24.3, Python 3.11.7)``: what the worker ran with."""
    return f" ({', '.join(f'{k} {v}' for k, v in versions.items())})" if versions else ""


def _as_finding(claim: Json) -> Json:
    return {
        "filename": claim["path"],
        "message": claim["message"],
        "code": claim["code"],
        "own": claim.get("own", ()),
    }


def _fix_row(target: Target, backend: str, runs: Json | None) -> Json:
    row: Json = {
        "backend": backend,
        "path": target.path,
        "function": target.unit,
        "codes": sorted(set(target.codes)) or [target.tree],
    }
    why = target.why_not_runnable()
    if why is None and runs is None:
        why = f"the {backend} backend was not run"
    elif why is None and runs is not None and "backend_error" in runs["original"]:
        why = f"the {backend} backend does not import: {runs['original']['backend_error']}"
    if why is not None or runs is None:
        return {**row, "verdict": "not runnable", "detail": why}
    fixed = runs.get("fixed", {}).get(target.tree, {})
    if "backend_error" in fixed:
        return {**row, "verdict": "differs", "detail": f"fixed tree: {fixed['backend_error']}"}
    before = runs["original"]["functions"].get(target.name, {})
    after = fixed.get("functions", {}).get(target.name, {})
    kind, detail = verdict(before, after, target.codes or [target.tree])
    if kind == "differs" and _unsafe_only(target):
        broken = breaks_a_call(before, after)
        kind = "breaks a call" if broken else "unsafe fix differs"
        detail = broken or detail
    row.update(verdict=kind, detail=detail, plan=before.get("plain", {}).get("plan"))
    if kind in ("differs", "corrects the claim only", "breaks a call", "unsafe fix differs"):
        row.update(before=before, after=after)
    return row


def _unsafe_only(target: Target) -> bool:
    """Every finding the changed function's fix came from offered an unsafe fix."""
    return bool(target.findings) and all(
        f.get("fix", {}).get("applicability") == "unsafe" for f in target.findings
    )


def breaks_a_call(before: Json, after: Json) -> str:
    """The standard for an unsafe fix (``--unsafe``): it may change a result (that is why it
    is unsafe), but a call that returned before must not raise after (issue 36: IVY001's
    attribute on PyTorch ``ldexp`` made a float64 ``out`` hit an internal assert). The
    calls that now raise, or ``""``."""
    broken = []
    for case in ("plain", "out_same", "out_other"):
        old, new = before.get(case), after.get(case)
        if not (isinstance(old, dict) and isinstance(new, dict)):
            continue
        raised_before = "raises" in (old.get("result") or {})
        raised_after = "raises" in (new.get("result") or {})
        if raised_after and not raised_before:
            result = new.get("result") or {}
            broken.append(f"{case}: now raises {result.get('raises')} ({result.get('root')})")
    return "; ".join(broken)


def _claim_rows(
    claim: Json, per_backend: Mapping[str, Json], backends: Sequence[str]
) -> list[Json]:
    base = {k: claim[k] for k in ("path", "row", "col", "code", "message")}
    base["function"] = claim.get("function")
    if not claim.get("check"):
        return [{**base, "backend": "-", "status": "not runnable", "why": claim["why"]}]
    rows = []
    for backend in claim_backends(_as_finding(claim), claim["check"], backends):
        runs = per_backend.get(backend)
        if runs is None:
            rows.append(
                {
                    **base,
                    "backend": backend,
                    "status": "not runnable",
                    "why": f"the {backend} backend was not run",
                }
            )
            continue
        original = runs["original"]
        if "backend_error" in original:
            rows.append(
                {
                    **base,
                    "backend": backend,
                    "status": "not runnable",
                    "why": f"the {backend} backend does not import: {original['backend_error']}",
                }
            )
            continue
        seen = original["claims"].get(claim["id"], {"status": "not runnable", "why": "not run"})
        rows.append({**base, "backend": backend, "check": claim["check"], **seen})
    return rows


# -- output --------------------------------------------------------------------------------


def claim_summary(rows: Iterable[Json]) -> dict[tuple[str, int, int, str], str]:
    """Per finding: confirmed (every backend that ran it), refuted (one did), or absent."""
    status: dict[tuple[str, int, int, str], list[str]] = {}
    for row in rows:
        key = (row["path"], row["row"], row["col"], row["code"])
        status.setdefault(key, []).append(row["status"])
    summary = {}
    for key, values in status.items():
        if "refuted" in values:
            summary[key] = "refuted"
        elif "confirmed" in values:
            summary[key] = "confirmed"
    return summary


def markdown(report: Report) -> str:
    data = report.as_json()
    lines = [
        f"Corpus: `{Path(report.corpus).name}`; safe fixes: {report.safe_fixes}; "
        f"{round(report.seconds)} s.",
        "",
        "| backend | status |",
        "|---|---|",
        *(f"| {b} | {s} |" for b, s in report.backends.items()),
        "",
        "Fixes (one row per changed function and backend it runs on):",
        "",
        "| backend | same | corrects the claim only | differs | unsafe fix differs "
        "| breaks a call | not runnable |",
        "|---|---|---|---|---|---|---|",
    ]
    for backend, c in data["fix_counts"].items():
        lines.append(
            f"| {backend} | {c.get('same', 0)} | {c.get('corrects the claim only', 0)} | "
            f"{c.get('differs', 0)} | {c.get('unsafe fix differs', 0)} | "
            f"{c.get('breaks a call', 0)} | {c.get('not runnable', 0)} |"
        )
    lines += [
        "",
        "Claims (one row per correctness finding and backend it runs on; `-`: not run anywhere):",
        "",
        "| backend | confirmed | refuted | not runnable |",
        "|---|---|---|---|",
    ]
    for backend, c in data["claim_counts"].items():
        lines.append(
            f"| {backend} | {c.get('confirmed', 0)} | {c.get('refuted', 0)} | "
            f"{c.get('not runnable', 0)} |"
        )
    sections = [
        ("Fixes that differ", [f for f in report.fixes if f["verdict"] == "differs"], "detail"),
        (
            "Unsafe fixes that make a call raise that returned before",
            [f for f in report.fixes if f["verdict"] == "breaks a call"],
            "detail",
        ),
        (
            "Unsafe fixes that change a result (allowed: that is why they are unsafe)",
            [f for f in report.fixes if f["verdict"] == "unsafe fix differs"],
            "detail",
        ),
        (
            "Fixes that correct the claimed defect only",
            [f for f in report.fixes if f["verdict"] == "corrects the claim only"],
            "detail",
        ),
        (
            "Fixes verified same, but every generated input raises",
            [f for f in report.fixes if f["verdict"] == "same" and f.get("detail")],
            "detail",
        ),
        (
            "Fixes not runnable",
            [f for f in report.fixes if f["verdict"] == "not runnable"],
            "detail",
        ),
    ]
    for title, rows, key in sections:
        lines += ["", f"{title}: {len(rows)}", ""]
        lines += [
            f"- {r['backend']} `{r['function']}` ({r['path']}, {', '.join(r['codes'])}): {r[key]}"
            for r in rows
        ]
    for status in ("refuted", "confirmed", "not runnable"):
        rows = [c for c in report.claims if c["status"] == status]
        lines += ["", f"Claims {status}: {len(rows)}", ""]
        lines += [
            f"- {c['backend']} {c['code']}"
            + (f" `{c['function']}`" if c.get("function") else "")
            + f" ({c['path']}:{c['row']}): {c.get('why', '')}"
            for c in rows
        ]
    return "\n".join(lines) + "\n"


def _load_ecosystem() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "ecosystem_check", Path(__file__).with_name("ecosystem_check.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def update_review(review: Path, summary: Mapping[tuple[str, int, int, str], str]) -> int:
    """Write each finding's run-time status (``"runtime"``) into the ecosystem review."""
    eco = _load_ecosystem()
    entries = eco.parse_snapshot(review.read_text(encoding="utf-8"))
    from dataclasses import replace

    new = [replace(e, runtime=summary.get(e.key)) for e in entries]
    review.write_text(eco.render_snapshot(new), encoding="utf-8")
    return sum(1 for e in new if e.runtime)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--corpus", type=Path, default=None, help="one corpus root (default: every one of CORPORA)"
    )
    parser.add_argument("--only", action="append", choices=CORPORA, help="one shared corpus")
    parser.add_argument("--backend", action="append", choices=BACKENDS, help="default: all")
    parser.add_argument(
        "--worker-python",
        default=sys.executable,
        metavar="PYTHON",
        help="the interpreter that runs the backends (default: this one); make "
        "verify-fixes-backends passes build/verify-venv's, with the snapshot's JAX and TensorFlow",
    )
    parser.add_argument("--json", type=Path, help="write the full report (JSON) here")
    parser.add_argument("--markdown", type=Path, help="write the summary (Markdown) here")
    parser.add_argument(
        "--update-review",
        action="store_true",
        help='record confirmed/refuted claims as "runtime" in the corpus\'s review file',
    )
    parser.add_argument(
        "--review-from",
        type=Path,
        metavar="REPORT",
        help="no run: record the claims of a saved --json report in the review, then stop",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="a fix that corrects the defect its finding claims also fails (any change fails)",
    )
    parser.add_argument(
        "--unsafe",
        action="store_true",
        help="also run each rule's unsafe fixes (--unsafe-fixes); one fails when a call that "
        "returned before raises after",
    )
    args = parser.parse_args(argv)
    if args.corpus is not None:
        corpora = [args.corpus]
    else:
        corpora = [CORPORA_ROOT / name for name in args.only or CORPORA]
    if args.review_from:
        review = review_for(corpora[0])
        saved = json.loads(args.review_from.read_text(encoding="utf-8"))
        written = update_review(review, claim_summary(saved["claims"]))
        print(f"wrote {review} ({written} entries with a run-time status)")
        return 0
    # Absolute (the workers run in a scratch folder), not resolved: a venv's python is a link.
    python = os.path.abspath(args.worker_python)
    if not os.access(python, os.X_OK):
        print(f"error: no interpreter at {args.worker_python}", file=sys.stderr)
        return 2
    worst = 0
    for corpus in corpora:
        worst = max(worst, verify_corpus(corpus, args, python))
    return worst


def verify_corpus(corpus: Path, args: argparse.Namespace, python: str) -> int:
    """One corpus: 0 ok, 1 a fix differs or a claim is refuted, 2 cannot run. ``--json`` and
    ``--markdown`` files get the corpus's name before their suffix when several run."""
    if not (corpus / "ivy").is_dir():
        print(f"error: corpus not found: {corpus / 'ivy'}", file=sys.stderr)
        return 2
    print(f"## {corpus.name}")
    try:
        report = run(corpus, args.backend or BACKENDS, python, unsafe=args.unsafe)
    except (RuntimeError, subprocess.TimeoutExpired) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    text = markdown(report)
    print(text)
    several = args.corpus is None and len(args.only or CORPORA) > 1
    if args.json:
        path = _per_corpus(args.json, corpus) if several else args.json
        path.write_text(json.dumps(report.as_json(), indent=1) + "\n", encoding="utf-8")
    if args.markdown:
        path = _per_corpus(args.markdown, corpus) if several else args.markdown
        path.write_text(text, encoding="utf-8")
    if args.update_review:
        review = review_for(corpus)
        written = update_review(review, claim_summary(report.claims))
        print(f"wrote {review} ({written} entries with a run-time status)")
    failures = report.failures(strict=args.strict)
    for line in failures:
        print(f"FAIL {line}")
    print(
        f"verify-fixes {corpus.name}: {'FAILED' if failures else 'ok'} ({len(failures)} failures)"
    )
    return 1 if failures else 0


def _per_corpus(path: Path, corpus: Path) -> Path:
    return path.with_name(f"{path.stem}.{corpus.name}{path.suffix}")


if __name__ == "__main__":
    raise SystemExit(main())
