"""Files/s, kLOC/s and peak memory of ``ivycheck`` over large real trees.

Run by hand (never in CI):

    .venv/bin/python benchmarks/lint_throughput.py                # numpy, torch, tensorflow
    .venv/bin/python benchmarks/lint_throughput.py --trees numpy  # a quicker run

For each tree it runs the real ``ivycheck`` command with ``--jobs 1`` and ``--jobs 2``,
cold (empty cache directory) and warm (same cache, nothing changed), and prints one row
per run. Peak memory is the largest sum of resident memory over ivycheck's process tree,
sampled from ``/proc`` every 20 ms.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

IVYCHECK = Path(sys.executable).with_name("ivycheck")


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{name} is not installed in this interpreter")
    return Path(spec.origin).parent


def count_tree(root: Path) -> tuple[int, int]:
    files = lines = 0
    for path in root.rglob("*.py"):
        if any(part in {"__pycache__", "build"} for part in path.parts):
            continue
        files += 1
        try:
            with path.open("rb") as handle:
                lines += sum(1 for _ in handle)
        except OSError:
            pass
    return files, lines


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found.extend(int(child) for child in handle.read().split())
    except OSError:
        pass
    return found


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss_kib(pid: int) -> int:
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        total += _rss_kib(current)
        stack.extend(_children(current))
    return total


@dataclass
class Measurement:
    seconds: float
    peak_mib: float
    returncode: int


def measure(args: list[str], env: dict[str, str]) -> Measurement:
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(IVYCHECK), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss_kib(process.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    returncode = process.wait()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    return Measurement(elapsed, peak / 1024, returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=["numpy", "torch", "tensorflow"])
    parser.add_argument("--jobs", nargs="+", type=int, default=[1, 2])
    options = parser.parse_args()
    roots = [package_dir(name) for name in options.trees]
    files = lines = 0
    for root in roots:
        tree_files, tree_lines = count_tree(root)
        files += tree_files
        lines += tree_lines
    print(f"trees: {', '.join(options.trees)}: {files} files, {lines / 1000:.0f} kLOC")
    print(f"{'jobs':>4} {'cache':>5} {'seconds':>8} {'files/s':>8} {'kLOC/s':>7} {'peak MiB':>8}")
    for jobs in options.jobs:
        with tempfile.TemporaryDirectory(prefix="ivycheck-bench-cache-") as cache:
            env = {**os.environ, "IVYCHECK_CACHE_DIR": cache, "NO_COLOR": "1"}
            for label in ("cold", "warm"):
                result = measure(["--jobs", str(jobs), "--exit-zero", *map(str, roots)], env)
                if result.returncode != 0:
                    raise SystemExit(f"ivycheck exited {result.returncode}")
                print(
                    f"{jobs:>4} {label:>5} {result.seconds:>8.2f} "
                    f"{files / result.seconds:>8.0f} {lines / 1000 / result.seconds:>7.1f} "
                    f"{result.peak_mib:>8.0f}"
                )


if __name__ == "__main__":
    main()
