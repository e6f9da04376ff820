"""The runtime's per-call and ``out=`` figures before and after a change, in one run.

    .venv/bin/python benchmarks/runtime_before_after.py --rev REV [--rounds 3] [--backend B ...]

Extracts ``runtime/`` at git revision ``REV`` into a temporary ``ivycheck`` package, then
runs ``runtime_overhead.py``'s one-call table (``out_calls``, ``--stat min``) in child
processes, alternating the runtime at ``REV`` (on ``PYTHONPATH``) and the working tree's,
``--rounds`` times each; keeps each cell's least disturbed value and prints ivy / raw before
and after, with the load average (on a shared machine only ratios taken in one run compare).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from measure import load_average  # noqa: E402

CHILD = """
import json, sys
sys.path.insert(0, {here!r})
import runtime_overhead as ro
import ivycheck.runtime as ivy
ro.STAT[0] = min
result = {{"file": ivy.__file__}}
for backend in {backends!r}:
    with ivy.using_backend(backend):
        if backend == "torch":
            import torch
            torch.set_num_threads(1)
        result[backend] = dict(ro.out_calls(backend, {number}, {repeat}))
print(json.dumps(result))
"""


def extract(rev: str, into: Path) -> Path:
    """``runtime/`` at ``rev`` as ``into/ivycheck/runtime`` (with the package's
    ``__init__``), for ``PYTHONPATH``."""
    package = into / "ivycheck"
    package.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", rev, "runtime", "src/ivycheck/__init__.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryFile() as f:
        f.write(archive)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            tar.extractall(into / "_archive", filter="data")
    (into / "_archive" / "runtime").rename(package / "runtime")
    (into / "_archive" / "src" / "ivycheck" / "__init__.py").rename(package / "__init__.py")
    return into


def child(path: Path | None, backends: list[str], number: int, repeat: int) -> dict:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), env.get("PYTHONPATH")]))
    code = CHILD.format(here=str(HERE), backends=backends, number=number, repeat=repeat)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--number", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", action="append")
    args = parser.parse_args()
    backends = args.backend or ["numpy", "torch"]
    print(f"load average before: {load_average()}")
    best: dict[str, dict] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as tmp:
        before = extract(args.rev, Path(tmp))
        for _ in range(args.rounds):
            for side, path in (("before", before), ("after", None)):
                result = child(path, backends, args.number, args.repeat)
                assert (path is None) != result["file"].startswith(str(before)), result["file"]
                for backend in backends:
                    for label, cells in result[backend].items():
                        kept = best[side].setdefault(backend, {}).setdefault(label, {})
                        for col, ns in cells.items():
                            kept[col] = min(ns, kept.get(col, ns))
    print(f"load average after: {load_average()}")
    for backend in backends:
        print(f"\n## {backend}: ivy / raw, one call, min of {args.rounds} runs x {args.repeat}\n")
        print("| call | before | after | after / before (ivy ns) |")
        print("|---|---:|---:|---:|")
        for label, after in best["after"][backend].items():
            prior = best["before"][backend][label]
            print(
                f"| `{label}` | {prior['ivy'] / prior['raw']:.2f} "
                f"| **{after['ivy'] / after['raw']:.2f}** | {after['ivy'] / prior['ivy']:.2f} |"
            )


if __name__ == "__main__":
    main()
