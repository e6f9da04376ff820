"""``.gitignore``-pattern matching: ``GlobSet`` against pathspec; by hand.

    .venv/bin/python benchmarks/glob_matching.py [DIR] [--patterns 20000] [--sample 200]

Three measures, CPU time of this process, with the load average:

1. ``--patterns`` excludes of the shapes projects write (``name/``, ``*.ext``, ``/top``,
   ``dir/**/*.py``, ``!keep.py``, ``[abc]x?``) compiled, then every file and folder of
   ``DIR`` (default: this repository, ``.git`` and ``.venv`` left out) matched against
   them, twice (the second pass reuses the lazy DFA's states, as a walk's later folders
   do). pathspec compiles the same patterns and matches ``--sample`` of the paths (it tries
   every pattern's regular expression on each path). Both must give the same answers.
2. The hostile pattern ``"a*" * 20 + "b"`` on names of growing length: ``GlobSet`` up to
   4,000 characters, pathspec up to 24 (30 took 42 s, 60 ran past 120 s).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pathspec
from measure import load_average

from ivycheck.checker.project.globs import GlobSet

REPO = Path(__file__).resolve().parent.parent
SHAPES = ("dir_{n}/", "*.ext_{n}", "/top_{n}", "pkg_{n}/**/*.py", "!keep_{n}.py", "[abc]x{n}?")


def _paths(root: Path) -> list[str]:
    found: list[str] = []
    for folder, folders, files in os.walk(root):
        folders[:] = [f for f in folders if f not in {".git", ".venv", "node_modules"}]
        relative = os.path.relpath(folder, root)
        prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
        found += [prefix + name + "/" for name in folders]
        found += [prefix + name for name in files]
    return found


def _cpu(function: object) -> tuple[float, object]:
    assert callable(function)
    start = time.process_time()
    result = function()
    return time.process_time() - start, result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?", type=Path, default=REPO)
    parser.add_argument("--patterns", type=int, default=20_000)
    parser.add_argument("--sample", type=int, default=200)
    args = parser.parse_args()
    lines = [SHAPES[n % len(SHAPES)].format(n=n) for n in range(args.patterns)]
    paths = _paths(args.root)
    print(f"load average {load_average()}; {len(lines)} patterns, {len(paths)} paths")

    compile_s, ours = _cpu(lambda: GlobSet.from_lines(lines))
    assert isinstance(ours, GlobSet)
    first_s, answers = _cpu(lambda: [ours.match_file(p) for p in paths])
    second_s, _ = _cpu(lambda: [ours.match_file(p) for p in paths])
    print(
        f"GlobSet : compile {compile_s:.3f} s, match all paths {first_s:.3f} s "
        f"(again {second_s:.3f} s), total {compile_s + first_s:.3f} s"
    )
    ref_compile_s, reference = _cpu(lambda: pathspec.GitIgnoreSpec.from_lines(lines))
    assert isinstance(reference, pathspec.GitIgnoreSpec)
    sample = paths[:: max(1, len(paths) // args.sample)][: args.sample]
    ref_match_s, expected = _cpu(lambda: [reference.match_file(p) for p in sample])
    assert isinstance(answers, list) and isinstance(expected, list)
    assert [answers[paths.index(p)] for p in sample] == expected, "answers differ"
    per_path = ref_match_s / max(1, len(sample))
    print(
        f"pathspec: compile {ref_compile_s:.3f} s, {per_path * 1e3:.2f} ms a path "
        f"({len(sample)} sampled): all paths would take {per_path * len(paths):.1f} s"
    )

    hostile = "a*" * 20 + "b"
    for length in (24, 60, 4000):
        seconds, hit = _cpu(lambda n=length: GlobSet.from_lines([hostile]).match_file("a" * n))
        print(f"hostile pattern, {length}-character name: GlobSet {seconds * 1e3:.2f} ms ({hit})")
    for length in (20, 22, 24):
        spec = pathspec.GitIgnoreSpec.from_lines([hostile])
        seconds, hit = _cpu(lambda n=length, s=spec: s.match_file("a" * n))
        print(f"hostile pattern, {length}-character name: pathspec {seconds:.2f} s ({hit})")


if __name__ == "__main__":
    main()
