"""``Rule.may_find`` (issue 24) of every rule: never ``False``
on a file the rule reports something in, and ``False`` on the VALID examples it decides.

The engine skips libcst for a file no active rule may find anything in, so a wrong
``False`` is a missed finding: every INVALID example's tree must answer ``True``. The
VALID examples listed per rule must answer ``False`` (the rule decides them from
CPython's tree alone); the list is what keeps ``may_find`` from decaying into
``return True`` unnoticed. Examples the text test or the part already rule out are not
asked, as the engine does not ask them. The unlisted VALID examples are the
over-approximations the rules' docstrings name (IVY004: a name known to be ``None``;
IVY009: a string annotation; IVY010: a wrapped body that does not use ``out``; IVY015: a
falsy attribute inside a function).
"""

from __future__ import annotations

import ast

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, FileUnderCheck, Rule, checks_on_ast
from tests.rules.test_examples import CONFIG, _index

RULES = all_rules()

DECIDED_VALID: dict[str, frozenset[int]] = {
    "IVY001": frozenset({0, 3, 5, 8, 9, 10, 11}),
    "IVY002": frozenset({0, 1, 3, 4, 5, 6, 7, 8, 13, 17}),
    "IVY003": frozenset({0, 1, 2, 3, 4, 5, 6, 9, 10}),
    "IVY005": frozenset({0, 1, 2, 3, 4, 5}),
    "IVY006": frozenset({0, 1, 4, 6}),
    "IVY007": frozenset({0, 1, 2, 4, 5, 6}),
    "IVY013": frozenset({0, 2}),
    "IVY004": frozenset({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 17}),
    "IVY008": frozenset({0, 2, 3, 4, 5, 6, 7, 9, 10}),
    "IVY009": frozenset({0, 1, 2, 3, 5, 6, 7, 8, 10}),
    "IVY010": frozenset({0, 1, 2, 4, 5, 6, 7, 8}),
    "IVY011": frozenset(range(13)),
    "IVY012": frozenset({0, 3, 4, 5, 6, 7, 8}),
    "IVY014": frozenset({1, 5, 6, 7}),
    "IVY015": frozenset({0, 2, 3, 7, 8}),
    "IVY016": frozenset(range(9)),
    "IVY017": frozenset({0, 1, 2, 5, 6}),
    "IVY018": frozenset({0, 1, 2, 3, 4, 5, 6, 7}),
}
"""Per rule, the VALID examples ``may_find`` answers ``False`` on (by index)."""
GATED = sorted(code for code in DECIDED_VALID if not checks_on_ast(RULES[code]))
"""The rules still gated by ``may_find`` (a rule deciding in ``check()`` has no gate)."""


def _file(rule: type[Rule], example: Example) -> FileUnderCheck:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    return FileUnderCheck(example.code, example.path, example.path, config, _index(example))


def _asked(rule: type[Rule], example: Example) -> bool:
    """Whether the engine would ask ``may_find`` (the part and the text test pass)."""
    file = _file(rule, example)
    return rule.applies_to(file.part) and rule.is_relevant(example.code, file.config)


def _may_find(rule: type[Rule], example: Example) -> bool:
    return rule.may_find(ast.parse(example.code), _file(rule, example))


@pytest.mark.parametrize(
    ("rule", "example"),
    [
        pytest.param(RULES[code], example, id=f"{code}-INVALID-{number}")
        for code in GATED
        for number, example in enumerate(RULES[code].INVALID)
    ],
)
def test_may_find_on_every_invalid_example(rule: type[Rule], example: Example) -> None:
    assert _may_find(rule, example)


@pytest.mark.parametrize("code", GATED)
def test_may_find_decides_the_valid_examples_listed(code: str) -> None:
    rule = RULES[code]
    assert "may_find" in rule.__dict__, f"{code} has no may_find of its own"
    decided = {
        number
        for number, example in enumerate(rule.VALID)
        if _asked(rule, example) and not _may_find(rule, example)
    }
    assert DECIDED_VALID[code] <= decided
    assert DECIDED_VALID[code], f"{code}: may_find decides no VALID example"


def test_every_rule_run_on_files_has_a_may_find_listed_here() -> None:
    """A rule added without a ``may_find`` would send every file its text test passes to
    libcst again; one with a ``may_find`` not listed here would go untested."""
    engine_codes = {"IVY000", "IVY999", "IVY100"}
    assert set(DECIDED_VALID) == set(RULES) - engine_codes
