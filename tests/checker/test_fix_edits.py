"""Fix edits computed from the one top-level statement that changes equal those computed
from the whole module (the old, slower way), on every rule's INVALID examples, with and
without a final newline, and on ``examples/``."""

from __future__ import annotations

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
def test_statement_edits_equal_module_edits(
    monkeypatch: pytest.MonkeyPatch,
    path: str,
    source: str,
    files: dict[str, str] | None,
    final_newline: bool,
) -> None:
    if not final_newline:
        source = source.rstrip("\n")
    fast = _check(path, source, files)
    monkeypatch.setattr(engine, "_statement_splice", lambda *args: None)
    slow = _check(path, source, files)
    assert fast == slow


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
