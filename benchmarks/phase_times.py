"""Where a cold one-process run over a tree spends its time, by phase; run by hand.

    .venv/bin/python benchmarks/phase_times.py DIR

Runs the checker in this process (``--jobs 1``, no cache) with timers around the summary
of each file (CPython parse and facts for the index), the libcst parse, the batched rule
walk (every rule's callbacks included) and the placing of findings. What the rest of the
total is: reading files, the index, configuration, sorting. Pair it with
``libcst_parse.py DIR`` run just before or after: this machine's speed drifts.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ivycheck.checker.core import engine
from ivycheck.checker.run import indexing, runner

TIMES: dict[str, float] = {}


def timed(owner: Any, name: str, label: str) -> None:
    function: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            TIMES[label] = TIMES.get(label, 0.0) + time.perf_counter() - start

    setattr(owner, name, wrapper)


def main() -> None:
    root = Path(sys.argv[1])
    timed(indexing, "summarize", "summaries (CPython parse + facts)")
    timed(engine.cst, "parse_module", "libcst parse")
    timed(engine.walk, "visit_batched", "rule walk (all rules)")
    timed(engine, "locate", "placing findings")
    start = time.perf_counter()
    result = runner.run(runner.RunOptions(paths=(root,), jobs=1, use_cache=False))
    total = time.perf_counter() - start
    print(f"{result.files} files, {len(result.diagnostics)} findings, {total:.2f} s in all")
    for label, seconds in TIMES.items():
        print(f"  {label:<36} {seconds:7.2f} s")


if __name__ == "__main__":
    main()
