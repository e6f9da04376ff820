"""Files/s, kLOC/s and peak memory of ``ivycheck`` over large trees, cold, warm, one touched.

Run by hand (never in CI):

    .venv/bin/python benchmarks/lint_throughput.py                    # numpy, torch, tensorflow
    .venv/bin/python benchmarks/lint_throughput.py --trees numpy      # a quicker run
    .venv/bin/python benchmarks/lint_throughput.py --sizes 1000 5000 20000 50000

``--trees`` lints installed packages' sources in place; ``--sizes`` writes generated
Ivy-style trees of that many functions (``corpus.py``: functional API plus four backends,
every file relevant) and also times a bare libcst parse of the same files on one core.
For each tree and each ``--jobs`` value: cold (empty cache), warm (same cache, nothing
changed), and three times after touching one file (one API file's body changes). Peak memory is the
largest sum of resident memory over ivycheck's process tree (``measure.py``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from pathlib import Path

from measure import count_tree, measure

BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
HEADER = (
    f"{'tree':<22} {'jobs':>4} {'run':>7} {'seconds':>8} {'files/s':>8} {'kLOC/s':>7} "
    f"{'peak MiB':>8}"
)


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{name} is not installed in this interpreter")
    return Path(spec.origin).parent


def _touch(root: Path) -> None:
    """Change one functional-API file (or any file) the way an edit would."""
    candidates = sorted(root.rglob("functional/ivy/*.py")) or sorted(root.rglob("*.py"))
    with candidates[len(candidates) // 2].open("a") as handle:
        handle.write(f"\n# touched {time.time_ns()}\n")


def lint(label: str, roots: list[Path], jobs_values: list[int], touch: Path | None) -> None:
    files = lines = 0
    for root in roots:
        tree_files, tree_lines = count_tree(root)
        files += tree_files
        lines += tree_lines
    print(f"# {label}: {files} files, {lines / 1000:.0f} kLOC", flush=True)
    for jobs in jobs_values:
        with tempfile.TemporaryDirectory(prefix="ivycheck-bench-cache-") as cache:
            env = {**os.environ, "IVYCHECK_CACHE_DIR": cache, "NO_COLOR": "1"}
            command = [str(BIN / "ivycheck"), "--jobs", str(jobs), "--exit-zero", "--quiet"]
            # Touched three times (a different edit each time): one sub-second run is luck.
            runs = ["cold", "warm"] + (["touched"] * 3 if touch is not None else [])
            for run in runs:
                if run == "touched" and touch is not None:
                    _touch(touch)
                result = measure([*command, *map(str, roots)], env=env)
                if result.returncode != 0:
                    raise SystemExit(f"ivycheck exited {result.returncode}")
                print(
                    f"{label:<22} {jobs:>4} {run:>7} {result.seconds:>8.2f} "
                    f"{files / result.seconds:>8.0f} {lines / 1000 / result.seconds:>7.1f} "
                    f"{result.peak_mib:>8.0f}",
                    flush=True,
                )


def parse_floor(label: str, root: Path) -> None:
    files, lines = count_tree(root)
    result = measure([str(BIN / "python"), str(HERE / "libcst_parse.py"), str(root)])
    print(
        f"{label + ' libcst parse':<22} {1:>4} {'-':>7} {result.seconds:>8.2f} "
        f"{files / result.seconds:>8.0f} {lines / 1000 / result.seconds:>7.1f} "
        f"{result.peak_mib:>8.0f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="*", default=None)
    parser.add_argument("--sizes", nargs="*", type=int, default=[])
    parser.add_argument("--jobs", nargs="+", type=int, default=[1, 2])
    options = parser.parse_args()
    trees = options.trees
    if trees is None and not options.sizes:
        trees = ["numpy", "torch", "tensorflow"]
    print(HEADER)
    if trees:
        lint(", ".join(trees), [package_dir(name) for name in trees], options.jobs, None)
    sys.path.insert(0, str(HERE))
    from corpus import generate

    for size in options.sizes:
        with tempfile.TemporaryDirectory(prefix=f"ivycheck-ivy-{size}-") as directory:
            root = Path(directory)
            (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
            generate(root, size)
            parse_floor(f"ivy-{size}", root)
            lint(f"ivy-{size}", [root], options.jobs, root)


if __name__ == "__main__":
    main()
