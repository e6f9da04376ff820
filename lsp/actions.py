"""Code actions: a rule's fix, "Fix all ivycheck problems", and "Suppress on this line".

All three are computed from the engine's own results (the diagnostics of the current
text and :func:`fix_source`), so the editor applies exactly what ``ivycheck --fix`` would.

A diagnostic's actions are offered when the request's range overlaps it *or* the client
names it in ``context.diagnostics`` (:class:`Wanted`), as ruff's server does: Neovim asks
with the cursor's position and the diagnostics of the cursor's line, so with the cursor at
the start of a flagged line the range alone would match nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lsprotocol import types

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.textedit import minimal_edit
from ivycheck.checker.noqa.comments import NOQA_RE
from ivycheck.lsp.convert import SOURCE, to_lsp_diagnostic, to_range, to_text_edits

FIX_ALL_KIND = "source.fixAll.ivycheck"


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _identity(diagnostic: types.Diagnostic) -> tuple[str, int, int, int, int]:
    start, end = diagnostic.range.start, diagnostic.range.end
    return (str(diagnostic.code), start.line, start.character, end.line, end.character)


@dataclass(frozen=True)
class Wanted:
    """What a ``textDocument/codeAction`` request asks about: its range, and the
    diagnostics the client sent in its context (those it showed: same code, same range)."""

    range: types.Range
    named: frozenset[tuple[str, int, int, int, int]] = frozenset()

    @classmethod
    def of(cls, params: types.CodeActionParams) -> Wanted:
        return cls(params.range, frozenset(_identity(d) for d in params.context.diagnostics))

    def covers(self, diagnostic: types.Diagnostic) -> bool:
        return _overlaps(diagnostic.range, self.range) or _identity(diagnostic) in self.named


def quick_fixes(
    uri: str, diagnostics: Sequence[Diagnostic], lines: Sequence[str], wanted: Wanted
) -> list[types.CodeAction]:
    actions = []
    for diagnostic in diagnostics:
        lsp = to_lsp_diagnostic(diagnostic, lines)
        if diagnostic.fix is None or not wanted.covers(lsp):
            continue
        actions.append(
            types.CodeAction(
                title=f"{diagnostic.fix.description} ({diagnostic.code})",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={uri: to_text_edits(diagnostic.fix.edits, lines)}),
            )
        )
    return actions


def fix_all(uri: str, before: str, after: str, lines: Sequence[str]) -> types.CodeAction | None:
    edit = minimal_edit(before, after)
    if edit is None:
        return None
    return types.CodeAction(
        title="Fix all ivycheck problems",
        kind=FIX_ALL_KIND,
        edit=types.WorkspaceEdit(changes={uri: to_text_edits([edit], lines)}),
    )


def _with_noqa(line: str, code: str) -> str | None:
    """The line with ``code`` added to its ``# noqa`` (or a new one); ``None`` if present."""
    match = NOQA_RE.search(line)
    if match is None:
        return f"{line.rstrip()}  # noqa: {code}"
    codes = match.group("codes")
    if codes is None:
        return None
    listed = [c.upper() for c in re.findall(r"[A-Za-z]+[0-9]+", codes)]
    if code in listed:
        return None
    return line[: match.start("codes")] + ", ".join([*listed, code]) + line[match.end("codes") :]


def suppressions(
    uri: str, diagnostics: Sequence[Diagnostic], lines: Sequence[str], wanted: Wanted
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    seen: set[tuple[int, str]] = set()
    for diagnostic in diagnostics:
        lsp = to_lsp_diagnostic(diagnostic, lines)
        key = (diagnostic.line, diagnostic.code)
        if key in seen or not wanted.covers(lsp) or diagnostic.line > len(lines):
            continue
        seen.add(key)
        original = lines[diagnostic.line - 1]
        changed = _with_noqa(original, diagnostic.code)
        if changed is None:
            continue
        edit = types.TextEdit(
            range=to_range(lines, diagnostic.line, 1, diagnostic.line, len(original) + 1),
            new_text=changed,
        )
        actions.append(
            types.CodeAction(
                title=f"Suppress {diagnostic.code} on this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions


__all__ = ["FIX_ALL_KIND", "SOURCE", "Wanted", "fix_all", "quick_fixes", "suppressions"]
