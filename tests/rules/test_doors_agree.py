"""Every front door shows the same findings: with fix text, without it, and without fixes.

The command's text reports, flake8 and the language server's diagnostics check without
fix text; JSON, SARIF, ``--fix`` and code actions with it. All run one ``Rule.check``, and a
fix's text is rendered apart (``Rule.fix``), so what a finding says and where it is must
not depend on the door: on every example of every rule, the three ways give the same
codes, spans, messages, severities and categories, and the fixes offered differ only in
carrying their edits.
"""

from __future__ import annotations

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.rule import Example, Rule
from ivycheck.checker.noqa.unused import UNUSED_NOQA
from tests.rules.test_examples import CONFIG, RULES, _index


def _shown(found: list[Diagnostic]) -> list[tuple[object, ...]]:
    """What every door shows of each diagnostic (the fix: whether one is offered)."""
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


def _doors(rule: type[Rule], example: Example) -> dict[str, list[Diagnostic]]:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    index = _index(example)

    def check(fixes: bool, edits: bool) -> list[Diagnostic]:
        return check_source(
            example.code,
            path=example.path,
            config=config,
            rules=RULES,
            index=index,
            relative_path=example.path,
            fixes=fixes,
            edits=edits,
        )

    return {
        "edits": check(True, True),
        "text": check(True, False),
        "editor": check(False, False),
    }


@pytest.mark.parametrize(
    ("rule", "example"),
    [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in RULES
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ],
)
def test_every_door_shows_the_same_findings(rule: type[Rule], example: Example) -> None:
    doors = _doors(rule, example)
    assert _shown(doors["text"]) == _shown(doors["edits"])
    without_fixes = [shown[:-1] for shown in _shown(doors["edits"])]
    assert [shown[:-1] for shown in _shown(doors["editor"])] == without_fixes
    if rule.CODE != UNUSED_NOQA:  # (the engine's own: its edit is a cut of the comment)
        assert all(d.fix is None or d.fix.edits == () for d in doors["text"])
        assert all(d.fix is None for d in doors["editor"])
    if example.expected is not None:
        assert any(d.fix is not None and d.fix.edits for d in doors["edits"])
