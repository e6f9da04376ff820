"""Files with thousands of decorators: is IVY005's cost linear in the decorators?

    .venv/bin/python benchmarks/many_decorators.py                       # 10,000, both shapes
    .venv/bin/python benchmarks/many_decorators.py --decorators 2500 5000 10000 20000
    .venv/bin/python benchmarks/many_decorators.py --command "python -c 'import sys; ..."  # other version

Writes ``<dir>/ivy/functional/ivy/decorated.py`` in one of two shapes, each holding N
decorators that Ivy's order names, and runs the real ``ivycheck --no-cache --jobs 1
--select IVY005`` on it with each output: text (no fix text), JSON (every fix rendered)
and ``--diff`` (fixes applied until none is left, nothing written):

- ``one``: one API function under all N decorators, four wrappers repeated against Ivy's
  order (one finding; the fix reorders the whole list). Comparing each decorator with
  every one above it made this quadratic: 73 s for 10,000 (issue 37).
- ``spread``: N / 2 functions under two wrappers each, the wrong way round (one finding
  each; one fix each).

Prints wall time, CPU time (user + system: the steadier figure on a shared machine) and
peak resident memory (``measure.py``), and checks the number of findings, so that a run
which finds less is not mistaken for a faster one.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from measure import load_average, measure  # noqa: E402

RELATIVE = Path("ivy/functional/ivy/decorated.py")
IVYCHECK = HERE.parent / ".venv" / "bin" / "ivycheck"
CYCLE = ("handle_exceptions", "handle_nestable", "handle_out_argument", "to_native_arrays_and_back")
"""Read top to bottom, each wrapper of the cycle sits below one it belongs above after the
first round (``handle_nestable`` under ``to_native_arrays_and_back``...)."""
OUTPUTS = {
    "text": ["--format", "text"],
    "json": ["--format", "json"],
    "diff": ["--diff"],
}


def source(shape: str, decorators: int) -> tuple[str, int]:
    """The module text and the number of findings it holds."""
    if shape == "one":
        lines = [f"@{CYCLE[i % len(CYCLE)]}\n" for i in range(decorators)]
        return "".join(lines) + "def tan(x, /, *, out=None):\n    return x\n", 1
    functions = decorators // 2
    text = "".join(
        f"@handle_out_argument\n@handle_view\ndef f_{n}(x, *, out=None):\n    return x\n\n\n"
        for n in range(functions)
    )
    return text, functions


def write(root: Path, shape: str, decorators: int) -> int:
    path = root / RELATIVE
    path.parent.mkdir(parents=True, exist_ok=True)
    text, findings = source(shape, decorators)
    path.write_text(text)
    # Above the default max-file-size (1 MiB) the file would be skipped, not checked.
    (root / "pyproject.toml").write_text(
        f"[tool.ivycheck]\nmax-file-size = {2 * len(text.encode()) + 1024}\n"
    )
    return findings


def run(root: Path, shape: str, decorators: int, output: str, command: list[str]) -> None:
    expected = write(root, shape, decorators)
    arguments = ["--no-cache", "--exit-zero", "--jobs", "1", "--select", "IVY005"]
    result = measure([*command, *arguments, *OUTPUTS[output], str(root)])
    if output == "json":
        found = result.stdout.count('"code": "IVY005"')
    elif output == "diff":
        found = expected if result.stdout.count("\n-@") >= expected else 0
    else:
        found = sum(1 for line in result.stdout.splitlines() if " IVY005 " in line)
    status = "" if found == expected else f"  (expected {expected} findings, got {found})"
    print(
        f"{shape:>7} {decorators:>10} {output:>6} {expected:>8} {result.seconds:>9.2f} "
        f"{result.cpu_seconds:>9.2f} {result.peak_mib:>8.0f}{status}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decorators", nargs="+", type=int, default=[10_000])
    parser.add_argument("--shapes", nargs="+", choices=("one", "spread"), default=["one", "spread"])
    parser.add_argument("--outputs", nargs="+", choices=tuple(OUTPUTS), default=list(OUTPUTS))
    parser.add_argument(
        "--command", default=str(IVYCHECK), help="the checker to run (to compare two versions)"
    )
    options = parser.parse_args()
    print(f"load average {load_average()}")
    print(
        f"{'shape':>7} {'decorators':>10} {'output':>6} {'findings':>8} {'seconds':>9} "
        f"{'cpu s':>9} {'peak MiB':>8}"
    )
    for shape in options.shapes:
        for decorators in options.decorators:
            for output in options.outputs:
                with tempfile.TemporaryDirectory(prefix="ivycheck-decorators-") as directory:
                    run(Path(directory), shape, decorators, output, shlex.split(options.command))


if __name__ == "__main__":
    main()
