"""How many files the ``ast`` gate (``Rule.may_find``, issue 24) spares libcst; run by hand.

    .venv/bin/python benchmarks/ast_gate.py DIR [--verify]

Checks every Python file under ``DIR`` in this process (no cache, the project's index as
a run builds it) and prints, per rule, how many files pass its text test (``is_relevant``,
for the file's part and selection), how many of those pass ``may_find``, how many have a
finding of the rule; then how many files libcst parsed (``libcst.parse_module`` wrapped
by a counter) out of how many files.

``--verify`` checks the files a second time with every ``may_find`` answering ``True``
(the text test alone deciding, as before the gate) and fails (exit status 1) if the
findings differ, naming each finding a rule's ``may_find`` would have hidden: the gate
may only spare work, never findings.
"""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

import libcst

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core import engine
from ivycheck.checker.core.rule import FileUnderCheck, Rule
from ivycheck.checker.run.projects import Projects

PARSES = [0]
_parse_module = libcst.parse_module


def counting_parse(*args: object, **kwargs: object) -> libcst.Module:
    PARSES[0] += 1
    return _parse_module(*args, **kwargs)  # type: ignore[arg-type]


def check_all(
    workspace: Projects, files: list[Path], root: Path
) -> tuple[list[Diagnostic], Counter[str], Counter[str]]:
    """Every file's diagnostics, and per rule the files passing ``is_relevant`` and
    ``may_find``."""
    index = workspace.project_index(root)
    relevant: Counter[str] = Counter()
    may: Counter[str] = Counter()
    found: list[Diagnostic] = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        config = workspace.config_for(path)
        file = FileUnderCheck(text, str(path), config.relative(path), config, index)
        active = engine.active_rules(workspace.rules, file)
        tree = None
        for rule in active:
            relevant[rule.CODE] += 1
            if tree is None:
                try:
                    tree = ast.parse(text)
                except (SyntaxError, ValueError):
                    break
            if rule.may_find(tree, file):
                may[rule.CODE] += 1
        found.extend(workspace.check_text(path, text, index))
    return found, relevant, may


def main() -> int:
    args = sys.argv[1:]
    verify = "--verify" in args
    root = Path(next(a for a in args if not a.startswith("--"))).resolve()
    workspace = Projects(use_cache=False)
    files = workspace.discover([root]).files
    libcst.parse_module = counting_parse
    found, relevant, may = check_all(workspace, files, root)
    parsed = PARSES[0]
    per_rule = Counter(d.code for d in found)
    print(f"{'rule':8} {'is_relevant':>11} {'may_find':>9} {'findings':>9}")
    for code in sorted(set(relevant) | set(per_rule)):
        files_with = len({d.path for d in found if d.code == code})
        print(f"{code:8} {relevant[code]:11} {may[code]:9} {files_with:5} files ({per_rule[code]})")
    with_findings = len({d.path for d in found})
    print(f"libcst parses: {parsed} of {len(files)} files ({with_findings} with findings)")
    if not verify:
        return 0
    original = Rule.__dict__["may_find"]
    asking = [rule for rule in workspace.rules if "may_find" in rule.__dict__]
    saved = {rule: rule.__dict__["may_find"] for rule in asking}
    for rule in asking:
        rule.may_find = original  # type: ignore[method-assign]
    PARSES[0] = 0
    try:
        ungated, _, _ = check_all(workspace, files, root)
    finally:
        for rule, method in saved.items():
            rule.may_find = method  # type: ignore[method-assign]
    print(f"without the gate: {PARSES[0]} libcst parses")
    key = lambda d: (d.path, d.line, d.col, d.code, d.message)  # noqa: E731
    missed = sorted(set(map(key, ungated)) - set(map(key, found)))
    extra = sorted(set(map(key, found)) - set(map(key, ungated)))
    for item in missed:
        print("MISSED by the gate:", *item)
    for item in extra:
        print("EXTRA with the gate:", *item)
    print("verify:", "identical findings" if not missed and not extra else "DIFFERENT")
    return 1 if missed or extra else 0


if __name__ == "__main__":
    sys.exit(main())
