"""Where a cold one-process run spends its CPU time, by phase; run by hand.

    .venv/bin/python benchmarks/phase_times.py DIR [--format text|json|sarif] [--fix-copy]

Runs the command in this process (``--no-cache --jobs 1``, the report written to
``/dev/null``) with timers around the functions of each phase of the one-tree engine:

- start-up: importing the command and the rules (before the run);
- discovery: finding the files and their configuration (``Projects.discover``,
  ``Projects.by_root``);
- read: ``read_source`` (bytes to text);
- parse: CPython's ``ast.parse`` (``trees.parse``), once per file;
- summaries: the facts of each file for the index (``summarize_file``);
- index: encoding and decoding summaries (``EncodedSummary``) and building the index;
- rules' checks: every ``Rule.check`` (``engine._checked``, fix text excluded);
- fix text: ``Rule.fix`` (libcst, only for formats that show edits and ``--fix``);
- engine rest: ``check_file`` outside the above (which rules apply, ``# noqa``, IVY100);
- reporting: formatting the findings (``_emit``).

Each timer is exclusive: a phase nested in another (a parse inside a check) counts in its
own line only. "other" is the rest of the run (the early check's bookkeeping, sorting,
the cache). CPU seconds (``time.process_time``); the profiler is not used, so the figures
are the run's own (``cProfile`` doubles them). ``--fix-copy``: run ``--fix`` over a
temporary copy of ``DIR`` instead (``DIR`` itself is never written).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_START = time.process_time()

from ivycheck.checker.base import trees  # noqa: E402 - timed from _START
from ivycheck.checker.core import engine, registry  # noqa: E402
from ivycheck.checker.frontends import cli  # noqa: E402
from ivycheck.checker.project import index as index_module  # noqa: E402
from ivycheck.checker.run import indexing, projects, runner  # noqa: E402

TIMES: dict[str, float] = {}
CALLS: dict[str, int] = {}
_STACK: list[float] = []
"""Per timed call in progress, the time its nested timed calls took (to subtract)."""


def timed(owner: Any, name: str, label: str) -> None:
    """Replace ``owner.name`` with a wrapper adding its exclusive CPU time to ``label``."""
    function: Callable[..., Any] = getattr(owner, name)  # (a classmethod comes bound)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _STACK.append(0.0)
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent = time.process_time() - start
            nested = _STACK.pop()
            TIMES[label] = TIMES.get(label, 0.0) + spent - nested
            CALLS[name] = CALLS.get(name, 0) + 1
            if _STACK:
                _STACK[-1] += spent

    setattr(owner, name, wrapper)


def instrument() -> None:
    """Timers on the functions of each phase, where the run looks them up."""
    timed(projects.Projects, "discover", "discovery")
    timed(projects.Projects, "by_root", "discovery")
    timed(indexing, "discover", "discovery")
    timed(projects.Projects, "config_for", "discovery")
    for module in (indexing, runner):
        timed(module, "read_source", "read")
    timed(trees, "parse", "parse")
    timed(indexing, "summarize_file", "summaries")
    timed(index_module.EncodedSummary, "decode", "index (encode, decode, build)")
    timed(index_module.ProjectIndex, "_add", "index (encode, decode, build)")
    timed(index_module.EncodedSummary, "encode", "index (encode, decode, build)")
    for module in (indexing, runner):
        timed(module, "check_file" if module is indexing else "check_source", "engine rest")
    timed(engine, "_checked", "rules' checks")
    timed(engine, "_with_fix_text", "fix text")
    timed(engine, "syntax_error_of", "engine rest")
    timed(engine, "active_rules", "engine rest")
    timed(cli, "_emit", "reporting")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--format", default="text")
    parser.add_argument("--fix-copy", action="store_true", help="--fix over a copy of root")
    args = parser.parse_args()
    registry.all_rules()  # the rules' modules: part of the start-up
    start_up = time.process_time() - _START
    instrument()
    with contextlib.ExitStack() as stack:
        root = args.root.resolve()
        command = ["--no-cache", "--jobs", "1", "--exit-zero", "--format", args.format]
        if args.fix_copy:
            copy = Path(stack.enter_context(tempfile.TemporaryDirectory())) / root.name
            shutil.copytree(root, copy)
            root, command = copy, [*command, "--fix"]
        devnull = stack.enter_context(open(os.devnull, "w"))
        stack.enter_context(contextlib.redirect_stdout(devnull))
        stack.enter_context(contextlib.redirect_stderr(devnull))
        begin = time.process_time()
        cli.main([*command, str(root)])
        total = time.process_time() - begin
    print(f"{args.root} --format {args.format}{' --fix (a copy)' if args.fix_copy else ''}")
    print(f"  {'start-up (imports)':<32} {start_up:6.2f} s")
    for label, seconds in sorted(TIMES.items(), key=lambda item: -item[1]):
        print(f"  {label:<32} {seconds:6.2f} s")
    print("  calls: " + ", ".join(f"{name} {count}" for name, count in CALLS.items()))
    print(f"  {'other':<32} {total - sum(TIMES.values()):6.2f} s")
    print(f"  {'run (without start-up)':<32} {total:6.2f} s; load {os.getloadavg()[0]:.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
