"""Wall time and peak memory of a command's whole process tree, for the hand-run benchmarks.

Peak memory is the largest sum of resident memory over the process and its children
(worker pools), sampled from ``/proc`` every 20 ms: a tool that forks two workers is
charged for all three processes, as the machine is.
"""

from __future__ import annotations

import os
import resource
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SKIPPED_PARTS = frozenset({"__pycache__", "build"})


def python_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if not SKIPPED_PARTS.intersection(path.parts))


def count_tree(root: Path) -> tuple[int, int]:
    """(files, lines) of the Python files under ``root``."""
    files = lines = 0
    for path in python_files(root):
        files += 1
        try:
            with path.open("rb") as handle:
                lines += sum(1 for _ in handle)
        except OSError:
            pass
    return files, lines


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, to print beside a figure ("?" off Linux)."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


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
    stdout: str
    cpu_seconds: float
    """User + system CPU of the command and the children it waited for (its workers): on a
    shared machine steadier than wall time."""


def measure(
    command: Sequence[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> Measurement:
    """Run ``command`` to completion; its wall time, peak tree RSS, exit code, stdout and
    CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(
        list(command),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
        text=True,
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
    stdout, _ = process.communicate()
    elapsed = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measurement(elapsed, peak / 1024, process.returncode, stdout, cpu)


def row(label: str, jobs: str, result: Measurement, files: int, lines: int) -> str:
    return (
        f"{label:<34} {jobs:>4} {result.seconds:>8.2f} {files / result.seconds:>8.0f} "
        f"{lines / 1000 / result.seconds:>7.1f} {result.peak_mib:>8.0f}"
    )


HEADER = f"{'tool':<34} {'jobs':>4} {'seconds':>8} {'files/s':>8} {'kLOC/s':>7} {'peak MiB':>8}"
