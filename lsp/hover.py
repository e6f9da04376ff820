"""Hover: a rule's documentation over its diagnostic, or over its code in ``# noqa:``."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.registry import all_rules
from ivycheck.lsp.convert import from_position

_CODE = re.compile(r"[A-Z]+[0-9]+")
_NOQA_CODES = re.compile(r"#\s*noqa:\s?(?P<codes>[A-Za-z]+[0-9]+(?:[,\s]+[A-Za-z]+[0-9]+)*)", re.I)


def code_at(lines: Sequence[str], position: types.Position) -> str | None:
    """The rule code under the cursor inside a ``# noqa:`` comment, if any."""
    if position.line >= len(lines):
        return None
    line = lines[position.line]
    _, col = from_position(lines, position)
    for noqa in _NOQA_CODES.finditer(line):
        start = noqa.start("codes")
        for code in _CODE.finditer(noqa.group("codes").upper()):
            if start + code.start() <= col - 1 <= start + code.end():
                return code.group()
    return None


def codes_at(
    diagnostics: Sequence[Diagnostic], lines: Sequence[str], position: types.Position
) -> list[str]:
    """Codes of the diagnostics whose range holds the position, plus a noqa code there."""
    line, col = from_position(lines, position)
    found = [
        d.code
        for d in diagnostics
        if (d.line, d.col) <= (line, col) <= (d.end_line, max(d.end_col, d.col + 1))
    ]
    noqa = code_at(lines, position)
    if noqa is not None:
        found.append(noqa)
    return list(dict.fromkeys(found))


def hover_for(codes: Sequence[str]) -> types.Hover | None:
    known = [code for code in codes if code in all_rules()]
    if not known:
        return None
    text = "\n\n---\n\n".join(_markdown(code) for code in known)
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _markdown(code: str) -> str:
    rule = all_rules()[code]
    parts = [
        f"**{rule.CODE}** `{rule.NAME}`: {rule.MESSAGE}",
        rule.explanation().replace("``", "`"),
    ]
    for label, examples in (("Flagged", rule.INVALID[:1]), ("Not flagged", rule.VALID[:1])):
        for example in examples:
            parts.append(f"{label}:\n```python\n{example.code.rstrip()}\n```")
    # No link: the project has no published home to point at. The same text, with every
    # example, is `--explain`'s and the section of docs/rules.md in ivycheck's sources.
    parts.append(f"More: `ivycheck --explain {code}` (or {code} in ivycheck's docs/rules.md)")
    return "\n\n".join(parts)
