"""Rule documentation as users read it: ``--explain CODE``, ``--list-rules`` and hovers.

Generated from the rules' own metadata (docstring, message, examples, fix safety), so the
documentation cannot drift from what the rule does: its examples are also its tests.
"""

from __future__ import annotations

import textwrap

from ivycheck.checker.registry import all_rules
from ivycheck.checker.rule import Example, Rule


def _fix_line(rule: type[Rule]) -> str:
    if rule.FIX_SAFETY is None:
        return "Fix: none (the change needs a decision only you can make)."
    return f"Fix: available ({rule.FIX_SAFETY.value}; `ivycheck --fix`{' --unsafe-fixes' if rule.FIX_SAFETY.value == 'unsafe' else ''})."


def _example(example: Example, label: str) -> str:
    header = f"{label} ({example.path})" if example.path else label
    body = textwrap.indent(example.code.rstrip("\n"), "    ")
    text = f"{header}:\n{body}\n"
    if example.expected is not None:
        text += f"  fixed:\n{textwrap.indent(example.expected.rstrip(chr(10)), '    ')}\n"
    return text


def explain(code: str, *, examples: int = 2) -> str:
    """A rule's documentation, with a few examples of each kind."""
    rule = all_rules()[code]
    parts = [
        f"{rule.CODE} ({rule.NAME}): {rule.MESSAGE}",
        "",
        rule.explanation(),
        "",
        f"Severity: {rule.SEVERITY.value}. {_fix_line(rule)}",
    ]
    if rule.INVALID:
        parts += ["", *(_example(e, "Flagged") for e in rule.INVALID[:examples])]
    if rule.VALID:
        parts += ["", *(_example(e, "Not flagged") for e in rule.VALID[:examples])]
    parts += [f"Suppress on one line with `# noqa: {rule.CODE}`; everywhere with `ignore`."]
    return "\n".join(parts).rstrip("\n") + "\n"


def list_rules() -> str:
    rules = all_rules()
    width = max(len(rule.NAME) for rule in rules.values())
    lines = [f"{'code':<7} {'name':<{width}}  fix     message"]
    for rule in rules.values():
        fix = rule.FIX_SAFETY.value if rule.FIX_SAFETY else "-"
        lines.append(f"{rule.CODE:<7} {rule.NAME:<{width}}  {fix:<7} {rule.MESSAGE}")
    return "\n".join(lines) + "\n"
