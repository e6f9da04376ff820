"""One big generated NumPy backend file: does the checker's cost grow linearly with it?

    .venv/bin/python benchmarks/big_file.py --functions 1000 2000 4000 8000
    .venv/bin/python benchmarks/big_file.py --functions 3334 --lines 60000
    .venv/bin/python benchmarks/big_file.py --functions 4445 --lines 80000 --format text --format json
    .venv/bin/python benchmarks/big_file.py --write DIR --functions 2000   # only write the tree
    .venv/bin/python benchmarks/big_file.py --command "python other/ivycheck"  # compare versions

Writes ``<dir>/ivy/functional/backends/numpy/big.py`` holding N two-line functions that each
forward ``out`` natively without ``support_native_out`` (``return np.tan(x, out=out)``: one
IVY001 each, with a fix) and, optionally, M clean functions that carry the attribute
(``--functions 3334 --lines 60000``: 10,000 functions in 60,000 lines, a third of them
findings). Then runs the real ``ivycheck --no-cache --jobs 1`` on the tree and prints wall
time and peak resident memory (``measure.py``), the CPU time it used (user + system: on a
shared machine the steadier figure) and its ratio to the file's ``ast.parse`` + ``ast.walk``
floor, and the time and memory per function: both must stay flat as N grows. ``--format
json`` runs the JSON report, which renders every fix's text edit (issue 37: the 80,000-line
file within 2x the floor and 250 MiB in JSON as in text). The number of findings is checked against N, so a run that finds less is
not mistaken for a faster one.
"""

from __future__ import annotations

import argparse
import ast
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measure import measure  # noqa: E402

RELATIVE = Path("ivy/functional/backends/numpy/big.py")
IVYCHECK = HERE.parent / ".venv" / "bin" / "ivycheck"
FINDING = "\n\ndef fn_{n}(x, /, *, out=None):\n    return np.tan(x, out=out)\n"
CLEAN = "\n\ndef ok_{n}(x, /, *, out=None):\n    return np.tan(x, out=out)\n\n\nok_{n}.support_native_out = True\n"
HEADER = "import numpy as np\n"
FINDING_LINES = FINDING.count("\n")
CLEAN_LINES = CLEAN.count("\n")


def clean_for_lines(functions: int, lines: int) -> int:
    """How many clean functions bring a file of ``functions`` findings to about ``lines``."""
    rest = lines - HEADER.count("\n") - functions * FINDING_LINES
    return max(0, rest // CLEAN_LINES)


def source(functions: int, clean: int) -> str:
    """The module text: the findings first, then the clean functions, interleaved evenly."""
    parts = [HEADER]
    total = functions + clean
    written_findings = 0
    for index in range(total):
        # Spread findings evenly over the file (Bresenham): positions, fixes and suppressions
        # are then exercised against statements both before and after each finding.
        if functions and (index + 1) * functions // total > written_findings:
            parts.append(FINDING.format(n=written_findings))
            written_findings += 1
        else:
            parts.append(CLEAN.format(n=index - written_findings))
    return "".join(parts)


def write(root: Path, functions: int, clean: int) -> Path:
    path = root / RELATIVE
    path.parent.mkdir(parents=True, exist_ok=True)
    text = source(functions, clean)
    path.write_text(text)
    pyproject = root / "pyproject.toml"
    if not pyproject.exists():
        # Above the default max-file-size (1 MiB) the file would be skipped, not checked.
        pyproject.write_text(f"[tool.ivycheck]\nmax-file-size = {2 * len(text.encode())}\n")
    return path


def floor(path: Path) -> float:
    """CPU seconds of CPython's ``ast.parse`` + ``ast.walk`` of the file (the floor of any
    ``ast``-based checker, as ``ast_floor.py`` takes it)."""
    start = time.process_time()
    for _ in ast.walk(ast.parse(path.read_bytes())):
        pass
    return time.process_time() - start


def run(root: Path, functions: int, clean: int, command: list[str], output: str) -> None:
    path = write(root, functions, clean)
    lines = path.read_text().count("\n")
    low = floor(path)
    arguments = ["--no-cache", "--exit-zero", "--jobs", "1", "--format", output]
    if output == "text":
        arguments.append("--quiet")
    result = measure([*command, *arguments, str(root)])
    cpu = result.cpu_seconds
    if output == "json":
        found = sum(1 for d in json.loads(result.stdout) if d["code"] == "IVY001")
    else:
        found = sum(1 for line in result.stdout.splitlines() if " IVY001 " in line)
    status = "" if found == functions else f"  (expected {functions} findings, got {found})"
    total = functions + clean
    print(
        f"{output:>6} {functions:>8} {clean:>8} {lines:>8} {found:>8} {result.seconds:>9.2f} "
        f"{cpu:>9.2f} {low:>7.2f} {cpu / low:>6.2f}x {result.seconds / total * 1e3:>9.3f} "
        f"{result.peak_mib:>8.0f} {result.peak_mib * 1024 / total:>9.2f}{status}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", nargs="+", type=int, default=[1000, 2000, 4000, 8000])
    parser.add_argument("--clean", type=int, default=0, help="clean functions added to each file")
    parser.add_argument("--lines", type=int, default=0, help="fill with clean functions to ~LINES")
    parser.add_argument("--write", type=Path, help="only write the tree (first size) to DIR")
    parser.add_argument(
        "--command", default=str(IVYCHECK), help="the checker to run (to compare two versions)"
    )
    parser.add_argument(
        "--format",
        action="append",
        dest="formats",
        choices=("text", "json"),
        help="output format of the runs (repeatable; default text)",
    )
    options = parser.parse_args()
    sizes = [
        (n, clean_for_lines(n, options.lines) if options.lines else options.clean)
        for n in options.functions
    ]
    if options.write is not None:
        path = write(options.write, *sizes[0])
        print(path)
        return
    print(
        f"{'format':>6} {'findings':>8} {'clean':>8} {'lines':>8} {'found':>8} {'seconds':>9} "
        f"{'cpu s':>9} {'floor':>7} {'ratio':>7} {'ms/fn':>9} {'peak MiB':>8} {'KiB/fn':>9}"
    )
    for functions, clean in sizes:
        for output in options.formats or ["text"]:
            with tempfile.TemporaryDirectory(prefix=f"ivycheck-big-{functions}-") as directory:
                run(Path(directory), functions, clean, shlex.split(options.command), output)


if __name__ == "__main__":
    main()
