"""Reduce an array larger than the machine's free memory on a 2-worker ``LocalCluster``, through
the runtime's Dask backend with ``out=`` in a loop and through plain ``dask.array``; run by hand.

    .venv/bin/python benchmarks/dask_larger_than_memory.py              # 32 GiB of float32
    .venv/bin/python benchmarks/dask_larger_than_memory.py --gib 0.5    # a quick try

The array is ``--gib`` GiB of float32 drawn chunk by chunk by Dask's random generator (one
expression for both sides, a ``(rows, 4096)`` array of ``--chunk-mib`` MiB row blocks), never
held whole. Each side reduces it over its rows, ``--slabs`` row ranges in a loop,
accumulated into a float64 vector:

- runtime: ``ivy.add(acc, ivy.sum(x[rows], axis=0), out=acc)`` -- ``x[rows]`` a view, each
  call rebinding ``acc``'s graph; nothing runs until ``ivy.to_numpy(acc)``;
- plain: ``acc = acc + x[rows].sum(axis=0).astype(float64)``, then ``acc.compute()``.

One pass over the array per run: each block is drawn, summed and dropped.

The cluster has 2 worker processes of one thread each with ``--memory-limit`` each (Dask's
own limit: a worker past it is restarted, which would show as a failed or slow round). Rounds
alternate the order (runtime first, then plain first ...); each run has a cluster of its own,
started before the clock, so that each worker's peak resident memory read after it
(``ru_maxrss``) is that run's, and so are the workers' CPU seconds. Prints, per run, the wall
time, the workers' CPU time (which other work on the machine disturbs far less than the wall
time), the peak memory per worker and the load average; then the median ratios runtime /
plain; the two sides' results must agree (they are the same arithmetic).
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import time
from collections.abc import Callable

import dask.array as da
import numpy as np
import psutil
from distributed import Client, LocalCluster

import ivycheck.runtime as ivy

COLUMNS = 4096


def source(gib: float, chunk_mib: int) -> da.Array:
    """``gib`` GiB of float32, generated block by block when computed (seeded: the same values
    every time it is computed)."""
    rows = int(gib * 2**30 / 4 / COLUMNS)
    chunk_rows = max(1, int(chunk_mib * 2**20 / 4 / COLUMNS))
    rng = da.random.default_rng(40)
    return rng.random((rows, COLUMNS), dtype=np.float32, chunks=(chunk_rows, COLUMNS))


def slabs(x: da.Array, count: int) -> list[slice]:
    """``count`` row ranges covering ``x``."""
    bounds = np.linspace(0, x.shape[0], count + 1).astype(int)
    return [slice(int(a), int(b)) for a, b in itertools.pairwise(bounds)]


def through_runtime(x: da.Array, count: int) -> np.ndarray:
    with ivy.using_backend("dask"):
        values = ivy.Array(x)
        acc = ivy.zeros((COLUMNS,), dtype=ivy.float64)
        for rows in slabs(x, count):
            ivy.add(acc, ivy.sum(values[rows], axis=0), out=acc)
        return ivy.to_numpy(acc)


def plain_dask(x: da.Array, count: int) -> np.ndarray:
    acc = da.zeros((COLUMNS,), dtype=np.float64)
    for rows in slabs(x, count):
        acc = acc + x[rows].sum(axis=0).astype(np.float64)
    return np.asarray(acc.compute())


def usage() -> tuple[int, float]:
    """This process's peak resident memory in bytes (Linux reports KiB) and CPU seconds."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_maxrss * 1024, own.ru_utime + own.ru_stime


def timed(
    memory_limit: str, run: Callable[[da.Array, int], np.ndarray], x: da.Array, count: int
) -> tuple[float, float, list[int], np.ndarray]:
    """``run`` on a fresh 2-worker cluster (started before the clock): wall seconds, the
    workers' CPU seconds, each worker's peak memory -- all this run's, as the workers are
    new -- and the result."""
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            memory_limit=memory_limit,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        before = sum(cpu for _, cpu in client.run(usage).values())
        start = time.perf_counter()
        result = run(x, count)
        seconds = time.perf_counter() - start
        after = client.run(usage).values()
    cpu = sum(c for _, c in after) - before
    return seconds, cpu, sorted(peak for peak, _ in after), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=32.0, help="array size in GiB (float32)")
    parser.add_argument("--chunk-mib", type=int, default=128)
    parser.add_argument("--memory-limit", default="3GiB", help="per worker")
    parser.add_argument("--slabs", type=int, default=8, help="row ranges reduced in the loop")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    free = psutil.virtual_memory().available
    size = int(args.gib * 2**30)
    print(
        f"array {size / 2**30:.1f} GiB float32 ({args.chunk_mib} MiB chunks); machine: "
        f"{psutil.virtual_memory().total / 2**30:.1f} GiB, {free / 2**30:.1f} GiB free "
        f"({'larger' if size > free else 'NOT larger'} than free memory); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
        flush=True,
    )
    through_runtime(da.ones((4, COLUMNS), dtype=np.float32), 2)  # the backend built, untimed
    x = source(args.gib, args.chunk_mib)
    sides = {"runtime": through_runtime, "plain": plain_dask}
    times: dict[str, list[float]] = {name: [] for name in sides}
    cpus: dict[str, list[float]] = {name: [] for name in sides}
    peaks: dict[str, list[int]] = {name: [] for name in sides}
    results: dict[str, np.ndarray] = {}
    for round_number in range(args.rounds):
        order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
        for name in order:
            seconds, cpu, worker_peaks, results[name] = timed(
                args.memory_limit, sides[name], x, args.slabs
            )
            times[name].append(seconds)
            cpus[name].append(cpu)
            peaks[name].extend(worker_peaks)
            print(
                f"round {round_number + 1} {name:<8} {seconds:7.1f} s wall {cpu:7.1f} s CPU "
                "(workers)  peak per worker "
                + ", ".join(f"{p / 2**20:.0f} MiB" for p in worker_peaks)
                + f"  load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    np.testing.assert_allclose(results["runtime"], results["plain"], rtol=1e-6)

    def ratio(values: dict[str, list[float]]) -> float:
        pairs = zip(values["runtime"], values["plain"], strict=True)
        return statistics.median(r / p for r, p in pairs)

    print(
        f"runtime / plain dask, median of {args.rounds} rounds: wall {ratio(times):.3f}, "
        f"workers' CPU {ratio(cpus):.3f}; medians {statistics.median(times['runtime']):.1f} s / "
        f"{statistics.median(times['plain']):.1f} s wall, {statistics.median(cpus['runtime']):.1f} s / "
        f"{statistics.median(cpus['plain']):.1f} s CPU; {args.gib:g} GiB in {args.slabs} slabs "
        f"per run; peak per worker: runtime {max(peaks['runtime']) / 2**20:.0f} MiB, plain "
        f"{max(peaks['plain']) / 2**20:.0f} MiB (limit {args.memory_limit}); results equal",
        flush=True,
    )


if __name__ == "__main__":
    main()
