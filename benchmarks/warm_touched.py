"""Warm and one-file-touched runs of two ivycheck versions on a copy of a tree; run by hand.

    .venv/bin/python benchmarks/warm_touched.py DIR --touch REL/PATH.py [--base OLD] [--rounds 5]

Copies ``DIR`` to a temporary folder, primes one result cache per version, then alternates
the versions ``--rounds`` times: a warm run (nothing changed), then the same run after a
comment is appended to ``--touch``. Prints the median CPU (user + system) of
``ivycheck --jobs 1`` per version and kind, with the load average. ``--base`` is a folder
put first on ``PYTHONPATH`` for the other version (a ``git archive`` of an older commit laid
out as the ``ivycheck`` package, as ``ast_floor.py``'s comparisons use); without it only
this version runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measure


def cpu_seconds(tree: Path, cache: Path, pythonpath: str | None) -> float:
    """CPU seconds of one ``ivycheck --jobs 1`` run over ``tree`` with ``cache``."""
    env = {**os.environ, "IVYCHECK_CACHE_DIR": str(cache)}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "ivycheck", "--jobs", "1", "--exit-zero", "--quiet"]
    return measure([*command, str(tree)], env=env).cpu_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--touch", required=True, help="file to touch, relative to ROOT")
    parser.add_argument("--base", help="PYTHONPATH folder of the version to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    versions: dict[str, str | None] = {"this": None}
    if args.base:
        versions = {"base": args.base, **versions}
    with tempfile.TemporaryDirectory(prefix="ivycheck-warm-") as directory:
        tree = Path(directory) / "tree"
        shutil.copytree(args.root, tree)
        touched = tree / args.touch
        caches = {name: Path(directory) / f"cache-{name}" for name in versions}
        for name, path in versions.items():
            cpu_seconds(tree, caches[name], path)  # prime
        times: dict[str, list[float]] = {}
        load = os.getloadavg()[0]
        for round_number in range(args.rounds):
            for name, path in versions.items():
                times.setdefault(f"{name} warm", []).append(cpu_seconds(tree, caches[name], path))
            for name, path in versions.items():
                with touched.open("a") as handle:
                    handle.write(f"\n# touched {round_number} {name}\n")
                run = cpu_seconds(tree, caches[name], path)
                times.setdefault(f"{name} one file touched", []).append(run)
        for label, values in times.items():
            print(f"{label:<26} {statistics.median(values):6.3f} s CPU (median of {len(values)})")
        print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
