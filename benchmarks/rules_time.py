"""CPU seconds of every rule's own check over a tree, in-process; run by hand.

    .venv/bin/python benchmarks/rules_time.py DIR [--rounds 3] [--fix-edits]

Runs the checker in this process (``--jobs 1``, no cache, as ``ivycheck --no-cache --jobs 1
DIR``) with a CPU timer around each rule's :meth:`~ivycheck.checker.core.rule.Rule.check`
(its findings listed, so a generator's work counts) and around the engine's choice of the
active rules per file (``engine.active_rules``: the text tests). A fact that several rules
share (``rules/_ast_facts.facts``, the out-flow of a module...) is charged to the first rule
that asks for it; the sum is what the rules cost together. ``--fix-edits`` renders the
fixes' text too, as the JSON and SARIF reports do, each rule's ``Rule.fix`` timed apart
(``IVYnnn fix``); libcst's import (about 0.17 s) is paid by the first round's first fix
only, so the medians leave it out. Each round is a cold run of the same process (the rules'
caches are keyed on the trees, which each run parses anew); the figures are the medians
over ``--rounds``, with the total of the whole run beside them: read the rules' share of
it, since this machine's speed drifts between runs.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ivycheck.checker.core import engine
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Rule
from ivycheck.checker.run import runner

ACTIVE = "(choosing the rules: engine.active_rules)"


def timed_checks(times: dict[str, float]) -> Callable[[], None]:
    """Wrap every rule's ``check`` and ``engine.active_rules`` with CPU timers adding to
    ``times``; returns what undoes it."""
    undo: list[Callable[[], None]] = []
    for code, rule in all_rules().items():
        if "check" not in vars(rule):
            continue
        original = vars(rule)["check"]

        def check(
            cls: type[Rule], tree: Any, file: Any, *, _code: str = code, _check: Any = original
        ) -> list[Any]:
            start = time.process_time()
            try:
                return list(_check.__func__(cls, tree, file))
            finally:
                times[_code] = times.get(_code, 0.0) + time.process_time() - start

        rule.check = classmethod(check)  # type: ignore[method-assign,assignment]
        undo.append(functools.partial(setattr, rule, "check", original))
        if "fix" in vars(rule):
            fix_original = vars(rule)["fix"]

            def fix(
                cls: type[Rule],
                finding: Any,
                file: Any,
                *,
                _label: str = f"{code} fix",
                _fix: Any = fix_original,
            ) -> Any:
                start = time.process_time()
                try:
                    return _fix.__func__(cls, finding, file)
                finally:
                    times[_label] = times.get(_label, 0.0) + time.process_time() - start

            rule.fix = classmethod(fix)  # type: ignore[method-assign,assignment]
            undo.append(functools.partial(setattr, rule, "fix", fix_original))
    active = engine.active_rules

    def active_rules(rules: Iterable[type[Rule]], file: Any) -> list[type[Rule]]:
        start = time.process_time()
        try:
            return active(list(rules), file)
        finally:
            times[ACTIVE] = times.get(ACTIVE, 0.0) + time.process_time() - start

    engine.active_rules = active_rules
    undo.append(functools.partial(setattr, engine, "active_rules", active))

    def undo_all() -> None:
        for step in undo:
            step()

    return undo_all


def one_run(root: Path, fix_edits: bool) -> tuple[dict[str, float], float, int, int]:
    """Per-rule CPU seconds, the run's total CPU seconds, its files and findings."""
    times: dict[str, float] = {}
    undo = timed_checks(times)
    start = time.process_time()
    try:
        options = runner.RunOptions(paths=(root,), jobs=1, use_cache=False, fix_edits=fix_edits)
        result = runner.run(options)
    finally:
        undo()
    return times, time.process_time() - start, result.files, len(result.diagnostics)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--fix-edits", action="store_true", help="render fix text (JSON)")
    args = parser.parse_args()
    root = args.root.resolve()
    os.chdir(root.parent)  # as ``ast_floor.py`` runs the command: the tree's own configuration
    load = os.getloadavg()[0]
    runs = [one_run(Path(root.name), args.fix_edits) for _ in range(args.rounds)]
    files, findings = runs[-1][2], runs[-1][3]
    labels = sorted({label for times, *_ in runs for label in times})
    median = {label: statistics.median(t.get(label, 0.0) for t, *_ in runs) for label in labels}
    checks = statistics.median(
        sum(v for k, v in t.items() if k != ACTIVE and not k.endswith(" fix")) for t, *_ in runs
    )
    fixes = statistics.median(sum(v for k, v in t.items() if k.endswith(" fix")) for t, *_ in runs)
    total = statistics.median(run[1] for run in runs)
    print(f"{files} files, {findings} findings; medians of {args.rounds} runs, CPU seconds")
    for label in sorted(median, key=median.__getitem__, reverse=True):
        print(f"  {label:<44} {median[label]:6.3f}")
    print(f"  {'every Rule.check':<44} {checks:6.3f}")
    if args.fix_edits:
        print(f"  {'every Rule.fix':<44} {fixes:6.3f}")
    print(f"  {'the whole run (in-process)':<44} {total:6.3f}")
    print(f"load {load:.1f} -> {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
