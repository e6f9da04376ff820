"""One big generated NumPy backend file: does the checker's cost grow linearly with it?

    .venv/bin/python benchmarks/big_file.py --functions 1000 2000 4000 8000
    .venv/bin/python benchmarks/big_file.py --functions 3334 --lines 60000
    .venv/bin/python benchmarks/big_file.py --write DIR --functions 2000   # only write the tree
    .venv/bin/python benchmarks/big_file.py --command "python other/ivycheck"  # compare versions

Writes ``<dir>/ivy/functional/backends/numpy/big.py`` holding N two-line functions that each
forward ``out`` natively without ``support_native_out`` (``return np.tan(x, out=out)``: one
IVY001 each, with a fix) and, optionally, M clean functions that carry the attribute
(``--functions 3334 --lines 60000``: 10,000 functions in 60,000 lines, a third of them
findings). Then runs the real ``ivycheck --no-cache --jobs 1`` on the tree and prints wall
time and peak resident memory (``measure.py``), the CPU time it used (user + system: on a
shared machine the steadier figure), and the time and memory per function: both must stay
flat as N grows. The number of findings is checked against N, so a run that finds less is
not mistaken for a faster one.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
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


def run(root: Path, functions: int, clean: int, command: list[str]) -> None:
    path = write(root, functions, clean)
    lines = path.read_text().count("\n")
    result = measure([*command, "--no-cache", "--exit-zero", "--quiet", "--jobs", "1", str(root)])
    cpu = result.cpu_seconds
    found = sum(1 for line in result.stdout.splitlines() if " IVY001 " in line)
    status = "" if found == functions else f"  (expected {functions} findings, got {found})"
    total = functions + clean
    print(
        f"{functions:>8} {clean:>8} {lines:>8} {found:>8} {result.seconds:>9.2f} {cpu:>9.2f} "
        f"{result.seconds / total * 1e3:>9.3f} {result.peak_mib:>8.0f} "
        f"{result.peak_mib * 1024 / total:>9.2f}{status}",
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
        f"{'findings':>8} {'clean':>8} {'lines':>8} {'found':>8} {'seconds':>9} {'cpu s':>9} "
        f"{'ms/fn':>9} {'peak MiB':>8} {'KiB/fn':>9}"
    )
    for functions, clean in sizes:
        with tempfile.TemporaryDirectory(prefix=f"ivycheck-big-{functions}-") as directory:
            run(Path(directory), functions, clean, shlex.split(options.command))


if __name__ == "__main__":
    main()
