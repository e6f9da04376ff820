"""Is ``out=`` ever slower than no ``out``? Paired runs, medians, a CI and a sign test.

    .venv/bin/python benchmarks/runtime_out_paired.py [--backend B ...] [--pairs N]

Issue 24 asks the runtime's loop with ``out`` to be no slower than the same loop without it
on every backend. On JAX and TensorFlow (no native ``out``: the result becomes ``out``'s
data) the two loops differ by a few hundred nanoseconds per call on 20-40 us operations, far
below the noise of one ratio on a shared machine. So, per backend:

1. **Work per call, counted** (deterministic): the Python functions and C functions one call
   runs (``sys.setprofile``), with ``out`` and without, for ``add`` of two arrays.
2. **Paired timings**: ``--pairs`` rounds, each timing the loop with ``out`` and the loop
   without it back to back, in alternating order (ABBA: a drift in load slows both sides
   alike). Per round the ratio with / without; reported: the median ratio with a bootstrap
   95 % confidence interval, and a sign test (how many rounds ``out`` was slower; the
   two-sided binomial p-value of that count under "neither is faster"). Done for the
   issue's loop, 100 x (add, multiply, subtract) on (256, 256) float32, and for the same on
   shape (8,) where the runtime's own cost is a larger part of each call and a difference
   is easier to see.

The load average is printed with the figures. ``--tensorflow-check full|dtype|none`` measures
what TensorFlow's check that a result fits ``out`` costs without its layout tokens (``dtype``
and ``none`` are measurements only: the runtime then misses an unfit ``out``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import ivycheck.runtime as ivy

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import load_average
from runtime_overhead import ivy_loops

BACKENDS = ("numpy", "torch", "jax", "tensorflow")


def loops(shape: tuple[int, ...], steps: int) -> tuple[Callable[[], None], Callable[[], None]]:
    """The loop without ``out`` and the loop with it, on the backend in use."""
    size = math.prod(shape)
    values = np.linspace(-1, 1, size, dtype=np.float32).reshape(shape)
    a, b = ivy.asarray(values), ivy.asarray(values[::-1].copy())
    return ivy_loops(a, b, ivy.zeros(shape), steps)


def calls_made(fn: Callable[[], Any]) -> tuple[list[str], list[str]]:
    """The Python functions and the C functions one call of ``fn`` runs (``fn`` itself not
    counted)."""
    python: list[str] = []
    native: list[str] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            python.append(frame.f_code.co_name)
        elif event == "c_call":
            native.append(getattr(arg, "__qualname__", getattr(arg, "__name__", "?")))

    fn()  # warm up: caches filled on a first call are not the steady state
    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return python[1:], [n for n in native if n != "setprofile"]


def paired(
    plain: Callable[[], None], with_out: Callable[[], None], pairs: int, inner: int
) -> list[float]:
    """Per round, (time with ``out``) / (time without), the two run back to back in
    alternating order."""
    for _ in range(3):  # warm up (JIT caches, allocator)
        plain()
        with_out()
    clock = time.perf_counter
    ratios = []
    for i in range(pairs):
        order = (plain, with_out) if i % 2 == 0 else (with_out, plain)
        spent = {}
        for fn in order:
            start = clock()
            for _ in range(inner):
                fn()
            spent[fn] = clock() - start
        ratios.append(spent[with_out] / spent[plain])
    return ratios


def bootstrap_median(values: list[float], rounds: int = 2000) -> tuple[float, float]:
    """95 % percentile-bootstrap interval of the median."""
    rng = random.Random(24)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(rounds))
    return medians[int(0.025 * rounds)], medians[int(0.975 * rounds) - 1]


def sign_test(ratios: list[float]) -> tuple[int, int, float]:
    """(rounds where ``out`` was slower, rounds with a difference, two-sided p-value)."""
    slower = sum(r > 1 for r in ratios)
    n = sum(r != 1 for r in ratios)
    k = min(slower, n - slower)
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n) if n else 1.0
    return slower, n, p


def report(backend: str, pairs: int) -> None:
    with ivy.using_backend(backend):
        if backend == "torch":
            import torch

            torch.set_num_threads(1)
        x = ivy.asarray(np.ones(8, np.float32))
        o = ivy.zeros((8,))
        python_plain, native_plain = calls_made(lambda: ivy.add(x, x))
        python_out, native_out = calls_made(lambda: ivy.add(x, x, out=o))
        print(f"\n## {backend} (load average {load_average()})\n")
        print("one `add` of two arrays: Python functions / C functions called")
        print(
            f"- without out: {len(python_plain)} {python_plain} / {len(native_plain)} {native_plain}"
        )
        print(f"- with out:    {len(python_out)} {python_out} / {len(native_out)} {native_out}")
        print("\n| loop | pairs | median with / without | 95 % CI | out slower in | sign test p |")
        print("|---|---:|---:|---|---:|---:|")
        for shape, inner in (((256, 256), 1), ((8,), 1)):
            plain, with_out = loops(shape, 100)
            ratios = paired(plain, with_out, pairs, inner)
            low, high = bootstrap_median(ratios)
            slower, n, p = sign_test(ratios)
            print(
                f"| 100 x (add, multiply, subtract), {shape} | {pairs} "
                f"| **{statistics.median(ratios):.3f}** | {low:.3f}-{high:.3f} "
                f"| {slower} of {n} | {p:.2g} |"
            )


def replace_tensorflow_check(check: str) -> None:
    """TensorFlow's check that a result fits ``out``, set before the backend is built: no
    layout tokens (``primitives.layout``), and ``same_layout`` as it is (``full``) or
    replaced by a weaker one, to measure what each costs."""
    from ivycheck.runtime.backends.tensorflow import primitives

    primitives.layout = None  # type: ignore[assignment]
    if check == "full":
        print("(TensorFlow's layout check: both layouts read on every call)")
        return

    def dtype_only(a: Any, b: Any) -> bool:
        return bool(a._datatype_enum() == b._datatype_enum())

    def none(a: Any, b: Any) -> bool:
        return True

    primitives.same_layout = dtype_only if check == "dtype" else none  # type: ignore[assignment]
    print(f"(TensorFlow's layout check replaced: {check})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=BACKENDS, action="append")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument(
        "--tensorflow-check",
        choices=("tokens", "full", "dtype", "none"),
        default="tokens",
        help="TensorFlow's check that a result fits out: as built (layout tokens), or "
        "without tokens reading both layouts each call (full), the dtypes only, or nothing "
        "(a measurement only: an unfit out then goes unnoticed)",
    )
    args = parser.parse_args()
    if args.tensorflow_check != "tokens":
        replace_tensorflow_check(args.tensorflow_check)
    for backend in args.backend or ["jax", "tensorflow"]:
        report(backend, args.pairs)


if __name__ == "__main__":
    main()
