"""Every rule's VALID and INVALID examples, run as tests, and every fix checked for safety."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import ENGINE_CODES, check_source, fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, Rule
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import summarize_file

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))


def _cases(kind: str) -> list[object]:
    return [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in RULES
        for number, example in enumerate(getattr(rule, kind))
    ]


def _index(example: Example) -> ProjectIndex:
    files = {example.path: example.code, **example.files}
    return ProjectIndex.build(
        summarize_file(source, path, CONFIG.part_of(path)) for path, source in files.items()
    )


def _diagnostics(rule: type[Rule], example: Example, source: str | None = None) -> list[Diagnostic]:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    return check_source(
        example.code if source is None else source,
        path=example.path,
        config=config,
        rules=RULES,
        index=_index(example),
        relative_path=example.path,
    )


def _check(rule: type[Rule], example: Example, source: str | None = None) -> list[str]:
    return [d.code for d in _diagnostics(rule, example, source)]


@pytest.mark.parametrize(("rule", "example"), _cases("INVALID"))
def test_invalid_example_is_flagged(rule: type[Rule], example: Example) -> None:
    assert _check(rule, example) == [rule.CODE]


@pytest.mark.parametrize(
    ("rule", "example"),
    [
        pytest.param(rule, example, id=f"{rule.CODE}-INVALID-{number}")
        for rule in RULES
        for number, example in enumerate(rule.INVALID)
        if any(
            v is not None
            for v in (
                example.message,
                example.severity,
                example.category,
                example.line,
                example.column,
            )
        )
    ],
)
def test_invalid_example_pins_message_severity_category_position(
    rule: type[Rule], example: Example
) -> None:
    (found,) = _diagnostics(rule, example)
    if example.message is not None:
        assert example.message in found.message
    if example.severity is not None:
        assert found.severity is example.severity
    if example.category is not None:
        assert found.category == example.category.value
    if example.line is not None:
        assert found.line == example.line
    if example.column is not None:
        assert found.col == example.column


@pytest.mark.parametrize(("rule", "example"), _cases("VALID"))
def test_valid_example_is_not_flagged(rule: type[Rule], example: Example) -> None:
    assert _check(rule, example) == []


@pytest.mark.parametrize(
    ("rule", "example"),
    [case for case in _cases("INVALID") if case.values[1].expected is not None],  # type: ignore[attr-defined]
)
def test_fix_gives_expected_code_reparses_and_is_idempotent(
    rule: type[Rule], example: Example
) -> None:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    outcome = fix_source(
        example.code,
        path=example.path,
        config=config,
        rules=RULES,
        index=_index(example),
        relative_path=example.path,
        unsafe=True,
    )
    assert outcome.source == example.expected
    cst.parse_module(outcome.source)
    assert outcome.diagnostics == []
    assert _check(rule, example, outcome.source) == []
    again = fix_source(
        outcome.source,
        path=example.path,
        config=config,
        rules=RULES,
        index=_index(example),  # the same project (its own wrapper list, IVY005)
        relative_path=example.path,
        unsafe=True,
    )
    assert again.source == outcome.source
    assert again.applied == 0


@pytest.mark.parametrize("rule", RULES, ids=[rule.CODE for rule in RULES])
def test_rule_is_documented(rule: type[Rule]) -> None:
    assert rule.CODE[:3] == "IVY" and rule.CODE[3:].isdigit()
    assert rule.NAME and rule.NAME.lower() == rule.NAME
    assert rule.MESSAGE and "\n" not in rule.MESSAGE
    assert len(rule.explanation().splitlines()) >= 3
    if rule.CODE not in ENGINE_CODES - {"IVY000"}:
        assert len(rule.INVALID) >= 6 and len(rule.VALID) >= 6
    if rule.FIX_SAFETY is not None:
        assert any(example.expected for example in rule.INVALID)


def test_example_text_is_the_block_as_written_after_its_preamble() -> None:
    preamble = """
        def f(x, *, out=None):
            return x


        """
    example = Example(
        preamble=preamble,
        code="""
        f.support_native_out = True
        """,
        expected="""
        f.support_native_out = False
        """,
    )
    head = "def f(x, *, out=None):\n    return x\n\n\n"
    assert example.code == head + "f.support_native_out = True\n"
    assert example.expected == head + "f.support_native_out = False\n"
    assert Example("\n    x = 1\n    if x:\n        y = 2\n").code == "x = 1\nif x:\n    y = 2\n"
