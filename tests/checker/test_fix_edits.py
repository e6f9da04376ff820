"""Fix edits, rendered from the one top-level statement that changes, apply to the file
and make a file that parses, on every rule's INVALID examples, with and
without a final newline, and on ``examples/``; what the fixed text must be is each
example's ``expected`` (``tests/rules/test_examples.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core import engine
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from tests.helpers import REPO

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))


def _cases() -> list[object]:
    cases: list[object] = []
    for rule in RULES:
        for number, example in enumerate(rule.INVALID):
            files = {example.path: example.code, **example.files}
            cases.append(
                pytest.param(example.path, example.code, files, id=f"{rule.CODE}-{number}")
            )
    for path in sorted((REPO / "examples").rglob("*.py")):
        relative = str(path.relative_to(REPO / "examples"))
        cases.append(pytest.param(relative, path.read_text(), None, id=f"examples/{relative}"))
    return cases


def _check(path: str, source: str, files: dict[str, str] | None) -> list[Diagnostic]:
    if files is None:
        root = REPO / "examples"
        files = {str(p.relative_to(root)): p.read_text() for p in root.rglob("*.py")}
    files = {**files, path: source}
    index = ProjectIndex.build(summarize(s, p, CONFIG.part_of(p)) for p, s in files.items())
    return engine.check_source(
        source, path=path, config=CONFIG, rules=RULES, index=index, relative_path=path
    )


@pytest.mark.parametrize(("path", "source", "files"), _cases())
@pytest.mark.parametrize("final_newline", [True, False])
def test_fixed_text_parses_and_is_stable(
    path: str, source: str, files: dict[str, str] | None, final_newline: bool
) -> None:
    if not final_newline:
        source = source.rstrip("\n")
    try:
        ast.parse(source)
    except SyntaxError:
        return  # (examples/ holds files that do not parse, for IVY000)
    found = _check(path, source, files)
    if files is None:
        root = REPO / "examples"
        files = {str(p.relative_to(root)): p.read_text() for p in root.rglob("*.py")}
    files = {**files, path: source}
    index = ProjectIndex.build(summarize(s, p, CONFIG.part_of(p)) for p, s in files.items())
    outcome = engine.fix_source(
        source, path=path, config=CONFIG, rules=RULES, index=index, relative_path=path
    )
    assert outcome.problems == []
    ast.parse(outcome.source)
    fixable = [d for d in found if engine.is_applicable(d, unsafe=False)]
    assert (outcome.applied > 0) == bool(fixable)
    assert not [d for d in outcome.diagnostics if engine.is_applicable(d, unsafe=False)]


def test_the_comparison_covers_every_fixing_rule() -> None:
    fixed_codes = {
        d.code
        for rule in RULES
        for example in rule.INVALID
        for d in _check(example.path, example.code, dict(example.files))
        if d.fix is not None
    }
    fixing = {rule.CODE for rule in RULES if rule.FIX_SAFETY is not None and rule.PARTS}
    assert fixing and fixing <= fixed_codes
