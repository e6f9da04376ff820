"""Run the Array API standard's own test suite against ``ivycheck.runtime``, per backend.

    .venv/bin/python scripts/conformance.py                     # the four backends, 20 examples
    .venv/bin/python scripts/conformance.py --backend torch --max-examples 5 -- test_constants.py
    .venv/bin/python scripts/conformance.py --update            # rewrite the failure lists

The suite lives beside the checkout in ``../shared/array-api-tests`` (it is not on the package
index and is never copied into this repository); it runs from its own folder because its
``conftest.py`` is there, with byte code, pytest's cache and Hypothesis' database kept out of it.
Each backend runs in its own process, with the command ``PROVENANCE.md`` gives (no xfail list;
version 2025.12, the one the namespace implements, or another with ``--version``), so the
counts are the ones a peer namespace is measured with.

Every remaining failure is named, with its reason, in ``tests/conformance/<backend>-xfails.txt``
(one ``<test id>  # <reason>`` per line). ``--check`` fails on a failure that is not listed
there: a regression or a new test must be looked at, not absorbed. A listed test that now
passes is reported so that the list can shrink, but fails nothing (Hypothesis may simply not
have drawn the failing example this time). ``--update`` writes the lists, keeping the reason
already written for a test and using the first line of the error for a new one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO.parent / "shared" / "array-api-tests"
LISTS = REPO / "tests" / "conformance"
BACKENDS = ("numpy", "torch", "jax", "tensorflow")
MORE_BACKENDS = ("dask",)
"""Run only when named (``--backend dask``: ``make conformance-dask``)."""
PEERS = {"compat-dask": "array_api_compat.dask.array"}
"""Other namespaces run with the same command, for comparison (no failure list)."""
VERSION = "2025.12"
"""The version the namespace implements (``ivy.__array_api_version__``): the failure lists are
this version's."""


@dataclass
class Outcome:
    """One backend's run: counts, the failures with a one-line reason, and the wall time."""

    backend: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    errors: int = 0
    seconds: float = 0.0
    failures: dict[str, str] = field(default_factory=dict)

    def line(self) -> str:
        return (
            f"{self.backend:<10} {self.passed:>5} passed {self.failed:>5} failed "
            f"{self.skipped:>4} skipped {self.errors:>3} errors  {self.seconds:7.1f} s"
        )


def suite_folder() -> Path:
    if not (SUITE / "conftest.py").is_file():
        raise SystemExit(
            f"conformance: the Array API test suite is not at {SUITE} "
            "(CI has ../shared beside the checkout)"
        )
    return SUITE


def run_backend(
    backend: str,
    max_examples: int,
    selection: list[str],
    seed: int | None = None,
    version: str = VERSION,
) -> Outcome:
    """Run the suite (or ``selection`` of its files) against one backend in a subprocess;
    ``seed`` fixes Hypothesis' draws (the same examples every run)."""
    folder = suite_folder()
    with tempfile.TemporaryDirectory(prefix="ivycheck-conformance-") as scratch:
        report = Path(scratch) / "report.json"
        env = {
            **os.environ,
            "PYTHONDONTWRITEBYTECODE": "1",
            "ARRAY_API_TESTS_VERSION": version,
            "ARRAY_API_TESTS_MODULE": PEERS.get(backend)
            or f"exec('import ivycheck.runtime as xp; xp.set_backend(\"{backend}\")')",
            "HYPOTHESIS_STORAGE_DIRECTORY": str(Path(scratch) / "hypothesis"),
            "TF_CPP_MIN_LOG_LEVEL": "3",
        }
        targets = [f"array_api_tests/{name}" for name in selection] or ["array_api_tests/"]
        command = [
            sys.executable,
            "-m",
            "pytest",
            *targets,
            "-p",
            "no:cacheprovider",
            "-q",
            "--max-examples",
            str(max_examples),
            "--disable-deadline",
            "--json-report",
            f"--json-report-file={report}",
            "--json-report-omit",
            "collectors",
            "log",
            "warnings",
            *([] if seed is None else [f"--hypothesis-seed={seed}"]),
        ]
        start = time.perf_counter()
        run = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, check=False
        )
        seconds = time.perf_counter() - start
        if not report.is_file():
            tail = "\n".join((run.stdout + run.stderr).splitlines()[-20:])
            raise SystemExit(f"conformance: the suite wrote no report for {backend}:\n{tail}")
        data = json.loads(report.read_text(encoding="utf-8"))
    return _outcome(backend, data, seconds)


def _outcome(backend: str, data: dict[str, object], seconds: float) -> Outcome:
    summary = data.get("summary", {})
    assert isinstance(summary, dict)
    outcome = Outcome(
        backend,
        passed=int(summary.get("passed", 0)),
        failed=int(summary.get("failed", 0)),
        skipped=int(summary.get("skipped", 0)),
        errors=int(summary.get("error", 0)),
        seconds=seconds,
    )
    tests = data.get("tests", [])
    assert isinstance(tests, list)
    for test in tests:
        if test.get("outcome") in {"failed", "error"}:
            outcome.failures[test["nodeid"]] = _reason(test)
    return outcome


def _reason(test: dict[str, object]) -> str:
    """The first informative line of the failure: the exception and its message."""
    for phase in ("call", "setup", "teardown"):
        part = test.get(phase)
        if isinstance(part, dict) and isinstance(part.get("crash"), dict):
            message = str(part["crash"].get("message", "")).strip()
            first = next((line for line in message.splitlines() if line.strip()), "")
            return " ".join(first.split())[:160] or "failed"
    return "failed"


def list_path(backend: str) -> Path:
    return LISTS / f"{backend}-xfails.txt"


def read_list(backend: str) -> dict[str, str]:
    """``test id -> reason`` from a committed failure list (missing list: no failure allowed)."""
    path = list_path(backend)
    if not path.is_file():
        return {}
    listed: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        test_id, _, reason = line.partition("  # ")
        listed[test_id.strip()] = reason.strip()
    return listed


def write_list(outcome: Outcome, selection: list[str]) -> None:
    """Rewrite the backend's list from ``outcome``; entries of suite files outside
    ``selection`` (when the run covered only some files) are kept as they were."""
    known = read_list(outcome.backend)
    kept = {
        test_id: reason
        for test_id, reason in known.items()
        if selection and _suite_file(test_id) not in selection
    }
    lines = [
        f"# Array API {VERSION} tests that fail on ivycheck.runtime with the {outcome.backend} "
        "backend, with why.",
        "# Written by `scripts/conformance.py --update`; a reason edited by hand is kept.",
    ]
    failures = {**kept, **outcome.failures}
    for test_id in sorted(failures):
        lines.append(f"{test_id}  # {known.get(test_id) or failures[test_id]}")
    LISTS.mkdir(parents=True, exist_ok=True)
    list_path(outcome.backend).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _suite_file(test_id: str) -> str:
    """``array_api_tests/test_x.py::test_y[...]`` -> ``test_x.py``."""
    return test_id.split("::", 1)[0].rsplit("/", 1)[-1]


def unlisted(outcome: Outcome) -> list[str]:
    """Failures the committed list does not name (the ones that fail ``--check``)."""
    listed = read_list(outcome.backend)
    return sorted(test_id for test_id in outcome.failures if test_id not in listed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=(*BACKENDS, *MORE_BACKENDS, *PEERS), action="append")
    parser.add_argument("--max-examples", type=int, default=20)
    parser.add_argument("--check", action="store_true", help="fail on an unlisted failure")
    parser.add_argument("--update", action="store_true", help="rewrite the failure lists")
    parser.add_argument(
        "--version",
        default=VERSION,
        help=f"ARRAY_API_TESTS_VERSION (2023.12, 2024.12, 2025.12); the lists are {VERSION}'s",
    )
    parser.add_argument(
        "--show-failures", action="store_true", help="print every failure with its reason"
    )
    parser.add_argument("files", nargs="*", help="suite files, e.g. test_constants.py")
    args = parser.parse_args(argv)
    if args.version != VERSION and (args.check or args.update):
        parser.error(f"--check and --update read and write the {VERSION} lists")
    status = 0
    for backend in args.backend or BACKENDS:
        outcome = run_backend(backend, args.max_examples, args.files, version=args.version)
        print(f"{args.version} {outcome.line()}", flush=True)
        if args.show_failures:
            for test_id, reason in sorted(outcome.failures.items()):
                print(f"  {test_id}: {reason}", flush=True)
        if args.update:
            write_list(outcome, args.files)
        if args.check:
            new = unlisted(outcome)
            for test_id in new:
                print(f"  not in {list_path(backend).name}: {test_id}: {outcome.failures[test_id]}")
            status = status or (1 if new else 0)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
