"""The Array API's real clients as a gate: their own tests, run on this namespace.

    .venv/bin/python scripts/clients.py --install              # once: the clients, the sdist
    .venv/bin/python scripts/clients.py --backend torch        # sklearn and array-api-extra
    .venv/bin/python scripts/clients.py --backend jax --client sklearn -- -x -k metrics

scikit-learn's array-API tests (``pytest --pyargs sklearn -k array_api``, ``SCIPY_ARRAY_API=1``)
and array-api-extra's own suite (from its sdist: the wheel has no tests) run in a process of
their own per backend, with ``scripts/clients_plugin.py`` putting this namespace where each
suite takes its namespaces (see there). The namespace's default float dtype is float64 there
(``ivy.set_default_float_dtype``), as in NumPy and array-api-strict, whose defaults both suites
are written against; ``--default-float float32`` runs them with the runtime's own default. One line per client: passed / failed / skipped /
errors, and the wall time. Heavy: one backend at a time, and ``-- -x -k ...`` while developing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENTS_DIR = ROOT / ".clients"
PYTHON = sys.executable
PACKAGES = ["scikit-learn", "scipy", "einops", "array-api-strict", "array-api-extra"]
EXTRA = "array-api-extra"


def install() -> int:
    """pip-install the clients and unpack array-api-extra's sdist (its tests) in ``.clients``."""
    pip = [PYTHON, "-m", "pip", "install", "--quiet", *PACKAGES]
    if subprocess.run(pip, check=False).returncode:
        return 1
    CLIENTS_DIR.mkdir(exist_ok=True)
    version = _installed_version(EXTRA)
    download = [PYTHON, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", EXTRA]
    download += ["--dest", str(CLIENTS_DIR), f"{EXTRA}=={version}"]
    if subprocess.run(download, check=False).returncode:
        return 1
    for sdist in CLIENTS_DIR.glob("array_api_extra-*.tar.gz"):
        with tarfile.open(sdist) as archive:
            archive.extractall(CLIENTS_DIR, filter="data")
    return 0


def _installed_version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


def _extra_tests() -> Path:
    found = sorted(CLIENTS_DIR.glob(f"array_api_extra-{_installed_version(EXTRA)}/tests"))
    if not found:
        sys.exit(f"no array-api-extra tests in {CLIENTS_DIR}: run with --install first")
    return found[-1]


def run(client: str, backend: str, extra_args: list[str], default_float: str = "float64") -> int:
    env = dict(os.environ, IVYCHECK_CLIENT_BACKEND=backend, SCIPY_ARRAY_API="1")
    env["IVYCHECK_CLIENT_DEFAULT_FLOAT"] = default_float
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT / "scripts"), env.get("PYTHONPATH")])
    )
    pytest = [PYTHON, "-m", "pytest", "-p", "clients_plugin", "-q", "-p", "no:cacheprovider"]
    pytest += ["-p", "no:asyncio", "-p", "no:pytest_lsp"]  # (the dev tools's plugins: not theirs)
    if client == "sklearn":
        # An empty configuration: this project's (strict markers) is not sklearn's.
        (CLIENTS_DIR / "pytest.ini").write_text("[pytest]\n")
        command = [*pytest, "-c", str(CLIENTS_DIR / "pytest.ini"), "--pyargs", "sklearn"]
        command += ["-k", "array_api", *extra_args]
        cwd: Path = CLIENTS_DIR
    else:
        env["IVYCHECK_CLIENT_AS_STRICT"] = "1"
        tests = _extra_tests()
        command = [
            *pytest,
            str(tests / "main"),
            "-k",
            "array_api_strict and not strictest",
            *extra_args,
        ]
        cwd = tests.parent
    start = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - start
    summary = [line for line in done.stdout.splitlines() if re.search(r"\d+ (passed|failed)", line)]
    tail = summary[-1] if summary else f"no summary (exit {done.returncode}): {done.stderr[-300:]}"
    label = f"{client:8} {backend:10} {default_float}"
    print(f"{label} {tail.strip('= ')} [{elapsed:.0f} s]", flush=True)
    if os.environ.get("IVYCHECK_CLIENTS_VERBOSE"):
        print(done.stdout[-5000:])
    return 0 if done.returncode in (0, 1) else done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="store_true", help="install the clients first")
    parser.add_argument(
        "--backend", action="append", choices=["numpy", "torch", "jax", "tensorflow"]
    )
    parser.add_argument("--client", action="append", choices=["sklearn", "extra"])
    parser.add_argument(
        "--default-float",
        choices=["float64", "float32"],
        default="float64",
        help="the namespace's default float dtype in the suites (default: float64)",
    )
    parser.add_argument("pytest_args", nargs="*", help="after --: passed on to pytest")
    args = parser.parse_args()
    if args.install and install():
        return 1
    status = 0
    for backend in args.backend or ["numpy", "torch", "jax", "tensorflow"]:
        for client in args.client or ["sklearn", "extra"]:
            status |= run(client, backend, args.pytest_args, args.default_float)
    return status


if __name__ == "__main__":
    sys.exit(main())
