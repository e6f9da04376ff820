"""ivycheck side by side with the tools people would otherwise run, in the same run.

    .venv/bin/python benchmarks/peers.py stdlib          # the standard library, tests excluded
    .venv/bin/python benchmarks/peers.py libs            # numpy, torch, jax, tensorflow sources
    .venv/bin/python benchmarks/peers.py ivy-20000       # a generated Ivy-style tree (corpus.py)
    .venv/bin/python benchmarks/peers.py stdlib --metadata   # also libcst with name resolution
    .venv/bin/python benchmarks/peers.py ../shared/corpora/ivy-975c8fc   # any folder of code

Needs the ``bench`` extra (``make bench-deps``: Fixit). Each corpus is copied to a
temporary directory first, so every tool sees exactly the same files and no configuration.
Rows: CPython's ``ast.parse`` + ``ast.walk`` of every file in one process (the floor of
any ``ast``-based checker), a bare libcst parse of every file on one core (the floor of
any libcst checker), ruff (its default rules and ``--select ALL``, on one thread and on
all), flake8 with pyflakes only (``--select F``) at ``--jobs 1`` and ``2``, Fixit with one of its
own rules (Fixit picks its own process count: all cores), and ivycheck with every rule,
cold (``--no-cache``) at ``--jobs 1`` and ``2`` and warm (cache primed, nothing changed).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from measure import HEADER, Measurement, count_tree, measure, row

BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
STDLIB_SKIPPED = frozenset({"site-packages", "test", "tests", "idle_test", "__pycache__"})
LIBRARIES = ("numpy", "torch", "jax", "tensorflow")
FIXIT_RULE = "fixit.rules:NoRedundantFString"
_FLOOR = (
    "import ast, pathlib, sys\n"
    "for path in pathlib.Path(sys.argv[1]).rglob('*.py'):\n"
    "    try:\n"
    "        for _ in ast.walk(ast.parse(path.read_bytes())): pass\n"
    "    except (SyntaxError, ValueError): pass\n"
)
"""The floor of any ``ast``-based checker (``ast_floor.py`` compares against it alone)."""


def _copy_python(source: Path, target: Path, skipped: frozenset[str]) -> None:
    for path in source.rglob("*.py"):
        relative = path.relative_to(source)
        if skipped.intersection(relative.parts) or not path.is_file():
            continue
        destination = target / relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)


def materialize(corpus: str, target: Path) -> None:
    """Write the named corpus under ``target``."""
    if corpus == "stdlib":
        _copy_python(Path(sysconfig.get_paths()["stdlib"]), target, STDLIB_SKIPPED)
    elif corpus == "libs":
        for name in LIBRARIES:
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None:
                raise SystemExit(f"{name} is not installed (make install-dev installs it)")
            _copy_python(Path(spec.origin).parent, target / name, frozenset({"__pycache__"}))
    elif Path(corpus).is_dir():
        _copy_python(Path(corpus), target, frozenset({"__pycache__"}))
    elif corpus.startswith("ivy-"):
        sys.path.insert(0, str(HERE))
        from corpus import generate

        generate(target, int(corpus.removeprefix("ivy-")))
    else:
        raise SystemExit(f"unknown corpus {corpus!r}: stdlib, libs, ivy-N or a folder")


def runs(root: Path, cache: Path, metadata: bool) -> list[tuple[str, str, list[str]]]:
    python = str(BIN / "python")
    parse = [python, str(HERE / "libcst_parse.py"), str(root)]
    ivycheck = [str(BIN / "ivycheck"), "--exit-zero", "--quiet"]
    flake8 = [str(BIN / "flake8"), "--isolated", "--select", "F", "--exit-zero"]
    floor = [python, "-c", _FLOOR, str(root)]
    ruff = [str(BIN / "ruff"), "check", "--isolated", "--exit-zero", "--quiet", "--no-cache"]
    one_thread = ["env", "RAYON_NUM_THREADS=1"]
    table = [("ast.parse + ast.walk", "1", floor), ("libcst parse", "1", parse)]
    table += [
        ("ruff check (default rules)", "1", [*one_thread, *ruff, str(root)]),
        ("ruff check (default rules)", "all", [*ruff, str(root)]),
        ("ruff check --select ALL", "1", [*one_thread, *ruff, "--select", "ALL", str(root)]),
    ]
    if metadata:
        table.append(("libcst parse + scope/qualified names", "1", [*parse, "--metadata"]))
    table += [
        ("flake8 --select F (pyflakes)", "1", [*flake8, "--jobs", "1", str(root)]),
        ("flake8 --select F (pyflakes)", "2", [*flake8, "--jobs", "2", str(root)]),
        (
            f"fixit ({FIXIT_RULE.split(':')[1]})",
            "all",
            [str(BIN / "fixit"), "--rules", FIXIT_RULE, "lint", str(root)],
        ),
        ("ivycheck, every rule, cold", "1", [*ivycheck, "--no-cache", "--jobs", "1", str(root)]),
        ("ivycheck, every rule, cold", "2", [*ivycheck, "--no-cache", "--jobs", "2", str(root)]),
        ("ivycheck, every rule, prime cache", "2", [*ivycheck, "--jobs", "2", str(root)]),
        ("ivycheck, every rule, warm", "2", [*ivycheck, "--jobs", "2", str(root)]),
    ]
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", help="stdlib, libs or ivy-N (N functions)")
    parser.add_argument("--metadata", action="store_true", help="add libcst with metadata")
    parser.add_argument(
        "--skip", nargs="*", default=[], help="rows to leave out, by first word: fixit, flake8..."
    )
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ivycheck-peers-") as directory:
        root = Path(directory) / "corpus"
        cache = Path(directory) / "cache"
        materialize(options.corpus, root)
        files, lines = count_tree(root)
        print(
            f"corpus {options.corpus}: {files} files, {lines / 1000:.0f} kLOC ({os.cpu_count()} cores)"
        )
        print(HEADER)
        env = {**os.environ, "IVYCHECK_CACHE_DIR": str(cache), "NO_COLOR": "1"}
        results: dict[tuple[str, str], Measurement] = {}
        for label, jobs, command in runs(root, cache, options.metadata):
            if label.split()[0] in options.skip:
                continue
            result = measure(command, env=env)
            # Fixit's exit code is a bit set: 1 found something, 2 a file failed (the
            # standard library holds files that do not parse); anything else is an error.
            if result.returncode not in (0, 1, 2, 3):
                raise SystemExit(f"{label} exited {result.returncode}")
            results[(label, jobs)] = result
            print(row(label, jobs, result, files, lines), flush=True)


if __name__ == "__main__":
    main()
