"""ivycheck's cold CPU time against the floor of any ``ast``-based checker; run by hand.

    .venv/bin/python benchmarks/ast_floor.py DIR [--rounds 5] [--jobs 1] [--base OLD]
        [--format text --format json --format sarif]

The floor is CPython's ``ast.parse`` + ``ast.walk`` of every Python file under ``DIR`` in
this one process; the other side is ``ivycheck --no-cache --jobs 1 --exit-zero DIR`` as a
child process (its user + system CPU, start-up included). The two alternate, ``--rounds``
times each, and the medians are compared: a ratio taken in one run, which the machine's
speed drifting between runs does not distort. Prints the load average with the figures
(issue 24's target: at most 3x at ``--jobs 1`` on the shared Ivy snapshot), and the peak
memory of the runs. ``--base`` is a folder to put on ``PYTHONPATH`` holding another
version of the package (a ``git archive`` laid out as ``ivycheck/``): it runs in the same
rounds, so both ratios come from one run. Each ``--format`` is its own run of each
version in every round (issue 37: every output format within 1.5x of the floor, since
every format runs the same check and only a fix's text is rendered apart).
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measure


def python_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for directory, folders, files in os.walk(root):
        folders[:] = [f for f in folders if not f.startswith(".")]
        found.extend(Path(directory) / f for f in files if f.endswith(".py"))
    return found


def floor(files: list[Path]) -> float:
    """CPU seconds to parse and walk every file once."""
    start = time.process_time()
    for path in files:
        try:
            for _ in ast.walk(ast.parse(path.read_bytes())):
                pass
        except (SyntaxError, ValueError):
            pass
    return time.process_time() - start


def ivycheck(
    root: Path, jobs: int, pythonpath: str | None = None, output: str = "text"
) -> tuple[float, float]:
    """CPU seconds (user + system) and peak MiB of one cold ivycheck run over ``root``
    printing ``output`` (``text``, ``json``, ``sarif``...)."""
    command = [sys.executable, "-m", "ivycheck", "--no-cache", "--jobs", str(jobs)]
    command += ["--format", output, "--exit-zero"]
    if output == "text":
        command.append("--quiet")
    env = None if pythonpath is None else {**os.environ, "PYTHONPATH": pythonpath}
    run = measure([*command, root.name], env=env, cwd=root.parent)
    return run.cpu_seconds, run.peak_mib


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--base", help="PYTHONPATH folder of the version to compare with")
    parser.add_argument(
        "--format", action="append", dest="formats", help="output format (repeatable; text)"
    )
    args = parser.parse_args()
    formats: list[str] = args.formats or ["text"]
    root = args.root.resolve()
    files = python_files(root)
    load = os.getloadavg()[0]
    versions = {"this": None, **({"base": args.base} if args.base else {})}
    floors: list[float] = []
    runs: dict[str, list[tuple[float, float]]] = {
        f"{name} {output}": [] for name in versions for output in formats
    }
    for _ in range(args.rounds):
        floors.append(floor(files))
        for name, pythonpath in versions.items():
            for output in formats:
                runs[f"{name} {output}"].append(ivycheck(root, args.jobs, pythonpath, output))
    low = statistics.median(floors)
    print(f"{len(files)} files: floor {low:.2f} s CPU (median of {args.rounds})")
    for name, measured in runs.items():
        high = statistics.median(cpu for cpu, _ in measured)
        peak = max(mib for _, mib in measured)
        print(
            f"{name}: ivycheck --jobs {args.jobs} {high:.2f} s CPU, ratio {high / low:.2f}x, "
            f"peak {peak:.0f} MiB"
        )
    print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
