"""ivycheck's cold CPU time against the floor of any ``ast``-based checker; run by hand.

    .venv/bin/python benchmarks/ast_floor.py DIR [--rounds 5] [--jobs 1]
        [--format text --format json --format sarif] [--fix]
        [--base-command "COMMAND"] [--bytecode]

The floor is CPython's ``ast.parse`` + ``ast.walk`` of every Python file under ``DIR`` in
this one process; the other side is ``ivycheck --no-cache --jobs 1 --exit-zero DIR`` as a
child process (its user + system CPU, start-up included). The two alternate, ``--rounds``
times each, and the medians are compared: a ratio taken in one run, which the machine's
speed drifting between runs does not distort. Prints the load average with the figures
(issue 24's target: at most 3x at ``--jobs 1`` on the shared Ivy snapshot; issue 37's:
every output format at most 1.5x), and the peak memory of the runs. Each ``--format`` is
its own run of each version in every round.

``--base-command``: the command of another version to run in the same rounds, so both
ratios come from one run; for instance ``"python /tmp/old/ivycheck_base.py"``, a script
that puts a checkout of the old commit laid out as ``ivycheck/`` first on ``sys.path``
and checks that ``ivycheck.__file__`` is there. (A ``PYTHONPATH`` entry does not do it:
the editable install's path comes first, and both sides ran the working tree.)

``--fix``: each run fixes a fresh copy of ``DIR`` (``--fix``, copied outside the timing;
``DIR`` itself is never written), and reports how many problems it fixed.

``--bytecode``: the children may write and read compiled bytecode (a private
``PYTHONPYCACHEPREFIX``, one untimed run of each version first), as an installed tool
does; without it they inherit this environment, where ``PYTHONDONTWRITEBYTECODE=1``
makes every run compile ivycheck's modules from source (about 0.1 s a run here).
"""

from __future__ import annotations

import argparse
import ast
import os
import shlex
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measure

THIS = [sys.executable, "-m", "ivycheck"]


def python_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for directory, folders, files in os.walk(root):
        folders[:] = [f for f in folders if not f.startswith(".")]
        found.extend(Path(directory) / f for f in files if f.endswith(".py"))
    return found


def floor(files: list[Path]) -> float:
    """CPU seconds to parse and walk every file once."""
    start = time.process_time()
    for path in files:
        try:
            for _ in ast.walk(ast.parse(path.read_bytes())):
                pass
        except (SyntaxError, ValueError):
            pass
    return time.process_time() - start


def ivycheck(
    command: list[str],
    root: Path,
    jobs: int,
    output: str = "text",
    fix: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[float, float, int]:
    """CPU seconds (user + system), peak MiB and files changed of one cold run of
    ``command`` over ``root`` printing ``output`` (``text``, ``json``, ``sarif``...);
    with ``fix``, over a fresh copy of ``root``, fixing it."""
    arguments = ["--no-cache", "--jobs", str(jobs), "--format", output, "--exit-zero"]
    if output == "text":
        arguments.append("--quiet")
    with tempfile.TemporaryDirectory(prefix="ast-floor-") as scratch:
        where = root
        if fix:
            where = Path(scratch) / root.name
            shutil.copytree(root, where, symlinks=True)
            arguments.append("--fix")
        run = measure([*command, *arguments, where.name], env=env, cwd=where.parent)
        changed = sum(
            1 for path in python_files(where) if path.read_bytes() != _original(root, where, path)
        )
    return run.cpu_seconds, run.peak_mib, changed


def _original(root: Path, copy: Path, path: Path) -> bytes:
    return (root / path.relative_to(copy)).read_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--base-command", help="the command of the version to compare with")
    parser.add_argument(
        "--format", action="append", dest="formats", help="output format (repeatable; text)"
    )
    parser.add_argument("--fix", action="store_true", help="fix a fresh copy in each run")
    parser.add_argument(
        "--bytecode", action="store_true", help="let the runs use compiled bytecode"
    )
    args = parser.parse_args()
    formats: list[str] = args.formats or ["text"]
    root = args.root.resolve()
    files = python_files(root)
    load = os.getloadavg()[0]
    versions = {"this": THIS}
    if args.base_command:
        # Paths made absolute: the runs start in DIR's parent (or in a copy's).
        versions["base"] = [
            os.path.abspath(word) if os.sep in word and os.path.exists(word) else word
            for word in shlex.split(args.base_command)
        ]
    with tempfile.TemporaryDirectory(prefix="ast-floor-bytecode-") as cache:
        env = None
        if args.bytecode:
            env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            env["PYTHONPYCACHEPREFIX"] = cache
            for command in versions.values():  # compiles and writes the bytecode, untimed
                ivycheck(command, root, args.jobs, formats[0], env=env)
        floors: list[float] = []
        runs: dict[str, list[tuple[float, float, int]]] = {
            f"{name} {output}": [] for name in versions for output in formats
        }
        for _ in range(args.rounds):
            floors.append(floor(files))
            for name, command in versions.items():
                for output in formats:
                    runs[f"{name} {output}"].append(
                        ivycheck(command, root, args.jobs, output, args.fix, env)
                    )
    low = statistics.median(floors)
    mode = " --fix (a fresh copy each run)" if args.fix else ""
    code = "with bytecode" if args.bytecode else "as this environment compiles"
    print(f"{len(files)} files: floor {low:.2f} s CPU (median of {args.rounds}); {code}{mode}")
    for name, measured in runs.items():
        high = statistics.median(cpu for cpu, _, _ in measured)
        peak = max(mib for _, mib, _ in measured)
        fixed = f", {measured[0][2]} files changed" if args.fix else ""
        print(
            f"{name}: ivycheck --jobs {args.jobs} {high:.2f} s CPU, ratio {high / low:.2f}x, "
            f"peak {peak:.0f} MiB{fixed}"
        )
    print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
