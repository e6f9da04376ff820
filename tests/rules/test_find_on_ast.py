"""``Rule.find_on_ast`` answers exactly what the libcst check reports, or nothing.

Every rule's examples (and variants that move the finding's name, add non-ASCII text and
wrap the function in the shapes the ast check declines) are checked three ways: with fix
edits (libcst decides), without edits (a rule may decide on CPython's tree), and with the
ast answer forced through the engine. The diagnostics must agree on everything but the
fix's edits: code, positions, message, severity, category, and whether a fix is offered
with which description and safety.
"""

from __future__ import annotations

import ast

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import AstFinding, Example, FileUnderCheck, Rule
from tests.rules.test_examples import CONFIG, _index

RULES = list(all_rules().values())
DECIDING = [
    rule
    for rule in RULES
    if rule.find_on_ast.__func__ is not Rule.find_on_ast.__func__  # type: ignore[attr-defined]
]
NP = "ivy/functional/backends/numpy/example.py"


def _rule(code: str) -> type[Rule]:
    """The rule ``code`` among those that decide on CPython's tree (for variant tests)."""
    (rule,) = [r for r in DECIDING if code == r.CODE]
    return rule


def _shown(found: list[Diagnostic]) -> list[tuple[object, ...]]:
    """Everything a text reporter shows of each diagnostic."""
    return [
        (
            d.code,
            d.line,
            d.col,
            d.end_line,
            d.end_col,
            d.message,
            d.severity,
            d.category,
            None if d.fix is None else (d.fix.description, d.fix.safety),
        )
        for d in found
    ]


def _both(rule: type[Rule], example: Example) -> tuple[list[Diagnostic], list[Diagnostic]]:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    index = _index(example)
    runs = [
        check_source(
            example.code,
            path=example.path,
            config=config,
            rules=RULES,
            index=index,
            relative_path=example.path,
            edits=edits,
        )
        for edits in (True, False)
    ]
    return runs[0], runs[1]


def _agree(code: str, example: Example, expected: int | None) -> None:
    """Both ways agree; the ast answers with ``expected`` findings, or declines."""
    rule = all_rules()[code]
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if expected is None:
        assert answer is None
        return
    assert answer is not None
    assert len(answer) == expected
    assert len([d for d in with_edits if d.code == code]) == expected
    assert all(d.fix is None or d.fix.edits == () for d in without)


def _answer(rule: type[Rule], example: Example) -> list[AstFinding] | None:
    path = example.path
    file = FileUnderCheck(example.code, path, path, CONFIG, _index(example))
    if not rule.applies_to(file.part):
        return None  # the engine asks only the rules of the file's part
    return rule.find_on_ast(ast.parse(example.code), file)


def _examples() -> list[object]:
    return [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in DECIDING
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ]


@pytest.mark.parametrize(("rule", "example"), _examples())
def test_examples_agree(rule: type[Rule], example: Example) -> None:
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if answer is not None:
        # The ast answer itself, not libcst's after a fallback, is what agreed: its
        # fixes carry no edits.
        assert len(answer) == len([d for d in with_edits if d.code == rule.CODE])
        assert all(d.fix is None or d.fix.edits == () for d in without)


def test_the_ast_answer_is_given_for_plain_examples() -> None:
    """Without this the comparisons above pass with a rule that always says ``None``."""
    answered = [
        example
        for rule in DECIDING
        for example in (*rule.VALID, *rule.INVALID)
        if _answer(rule, example)
    ]
    assert len(answered) >= 4
