"""``--add-noqa``: suppress every current finding in place, one ``# noqa: CODE`` per line.

Where the directive goes is where :mod:`ivycheck.checker.noqa.comments` reads it: the line
a finding starts on (for a multi-line statement, its first line). A line that already
carries ``# noqa: A`` gets the new codes merged into that list, sorted; any other comment
is kept and the directive appended after it (the noqa pattern is searched anywhere in a
comment). A line that cannot take a comment (it ends inside a multi-line string, or with
a backslash continuation) is left alone and counted, because appending there would change
a string or break the syntax.

The new text is only returned after checking what the writer relies on: it still parses
when the original did, and every added code is now suppressed on its line (read back
with the same :class:`~ivycheck.checker.noqa.comments.Suppressions` the engine uses).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import ENGINE_CODES, ast_syntax_error
from ivycheck.checker.noqa.comments import Suppressions, body_and_ending, comment_map, split_lines
from ivycheck.checker.noqa.unused import UNUSED_NOQA

NOT_ADDED: frozenset[str] = ENGINE_CODES | {UNUSED_NOQA}
"""A file that does not parse or a rule that crashed is not a finding about the code, and
a directive that is itself unused is removed, not suppressed."""


@dataclass
class NoqaEdit:
    """The outcome for one file's text."""

    text: str
    added: int = 0
    """Lines that got a new directive or new codes in an existing one."""
    unplaceable: list[int] = field(default_factory=list)
    """Lines with findings where no comment can go (reported, not suppressed)."""
    problem: str | None = None
    """Set when the edited text failed the checks: ``text`` is then the original."""


def merged_codes(existing: Iterable[str], added: Iterable[str]) -> str:
    """The code list of a merged directive: unique, sorted, as ``IVY001, IVY005``."""
    return ", ".join(sorted({*existing, *added}))


def add_noqa(
    source: str, diagnostics: Iterable[Diagnostic], *, skip: Collection[str] = NOT_ADDED
) -> NoqaEdit:
    """``source`` with a ``# noqa`` for each of ``diagnostics`` (all of one file)."""
    wanted: dict[int, set[str]] = {}
    for d in diagnostics:
        if d.code not in skip:
            wanted.setdefault(d.line, set()).add(d.code)
    if not wanted:
        return NoqaEdit(source)
    comments = comment_map(source)
    if comments is None:
        return NoqaEdit(source, unplaceable=sorted(wanted))
    lines = split_lines(source)
    result = NoqaEdit(source)
    for number, codes in sorted(wanted.items()):
        if number > len(lines):
            result.unplaceable.append(number)
            continue
        body, ending = body_and_ending(lines[number - 1])
        directive = comments.directive(number)
        if directive is not None:
            if directive.bare or codes <= set(directive.codes):
                continue
            body = (
                body[: directive.codes_start]
                + merged_codes(directive.codes, codes)
                + body[directive.codes_end :]
            )
        elif number in comments.open_lines or number in comments.comments:
            body = f"{body.rstrip()}  # noqa: {merged_codes((), codes)}"
        else:
            result.unplaceable.append(number)
            continue
        lines[number - 1] = body + ending
        result.added += 1
    if not result.added:
        return result
    text = "".join(lines)
    problem = _verify(source, text, wanted, set(result.unplaceable))
    if problem is not None:
        return NoqaEdit(source, 0, result.unplaceable, problem)
    result.text = text
    return result


def _verify(
    before: str, after: str, wanted: dict[int, set[str]], unplaceable: set[int]
) -> str | None:
    if ast_syntax_error(after, "") is not None and ast_syntax_error(before, "") is None:
        return "adding noqa directives would make the file unparsable; not changed"
    suppressions = Suppressions(after)
    for line, codes in wanted.items():
        if line in unplaceable:
            continue
        missing = sorted(c for c in codes if not suppressions.suppresses(line, c))
        if missing:
            return f"line {line}: the added directive would not suppress {', '.join(missing)}"
    return None
