"""IVY100: ``# noqa`` codes that suppress nothing, or name no rule (Ruff's RUF100).

This cannot be a rule like the others: whether ``# noqa: IVY005`` is used depends on the
findings of every other rule on that line, so it runs after them, on the file's selected
findings before suppression (the last step of checking a file, see
:func:`ivycheck.checker.core.engine.finish`).

What is judged, and why the rest is not:

- Only codes that look like ours (their letters are those of a registered rule code):
  ``# noqa`` comments are shared with flake8 and Ruff, and ``# noqa: E501`` is theirs.
- A bare ``# noqa`` is never reported, for the same reason.
- A code is *unknown* when no registered rule code starts with it (a typo such as
  ``IVY0005``), *unused* when no finding on the line starts with it, *duplicated* when
  the same code is listed again on the line.
- A code whose rules are all disabled for the file (``select``, ``ignore``,
  ``per-file-ignores``) is not judged: with the rule off nobody knows whether the line
  would be flagged, and a narrowed ``--select`` must not strip suppressions the full
  configuration needs. Nor is a code that covers IVY100 itself.

The fix (safe: a suppression that suppresses nothing changes no result) removes the
listed codes, or, when none is left, the whole directive with a trailing reason, keeping
any other comment on the line (``# type: ignore`` after it, a note before it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix, FixSafety, Severity
from ivycheck.checker.noqa.comments import NOQA_RE, NoqaDirective, comment_map, split_lines

UNUSED_NOQA = "IVY100"
_LETTERS = re.compile(r"[A-Z]+")


def _letters(code: str) -> str:
    match = _LETTERS.match(code)
    return match.group() if match else ""


def unused_noqa(
    source: str,
    found: Sequence[Diagnostic],
    *,
    path: str,
    known_codes: Collection[str],
    is_enabled: Callable[[str], bool],
) -> list[Diagnostic]:
    """IVY100 diagnostics for ``source``, whose selected findings (before ``# noqa`` is
    applied) are ``found``; ``is_enabled`` tells whether a rule code is on for the file."""
    if NOQA_RE.search(source) is None:
        return []
    comments = comment_map(source)
    if comments is None:
        return []
    ours = {_letters(code) for code in known_codes}
    codes_on_line: dict[int, list[str]] = {}
    for d in found:
        codes_on_line.setdefault(d.line, []).append(d.code)
    lines = split_lines(source)
    diagnostics: list[Diagnostic] = []
    for number in sorted(comments.comments):
        directive = comments.directive(number)
        if directive is None or directive.bare:
            continue
        verdicts = _judge(
            directive.codes, codes_on_line.get(number, []), ours, known_codes, is_enabled
        )
        if not verdicts:
            continue
        line_text = lines[number - 1] if number <= len(lines) else ""
        diagnostics.append(_diagnostic(path, number, directive, verdicts, line_text))
    return diagnostics


def _judge(
    codes: Sequence[str],
    on_line: Sequence[str],
    ours: Collection[str],
    known: Collection[str],
    is_enabled: Callable[[str], bool],
) -> dict[str, str]:
    """Listed code (its first occurrence's index as key suffix) -> why it goes."""
    verdicts: dict[str, str] = {}
    seen: set[str] = set()
    for position, code in enumerate(codes):
        key = f"{position}:{code}"
        if _letters(code) not in ours:
            continue
        if code in seen:
            verdicts[key] = "duplicated"
            continue
        seen.add(code)
        covered = [k for k in known if k.startswith(code)]
        if not covered:
            verdicts[key] = "unknown"
        elif UNUSED_NOQA in covered or not any(is_enabled(k) for k in covered):
            continue
        elif not any(found.startswith(code) for found in on_line):
            verdicts[key] = "unused"
    return verdicts


def _diagnostic(
    path: str, line: int, directive: NoqaDirective, verdicts: dict[str, str], line_text: str
) -> Diagnostic:
    groups: dict[str, list[str]] = {}
    for key, why in verdicts.items():
        groups.setdefault(why, []).append(key.split(":", 1)[1])
    detail = "; ".join(
        f"{why}: {', '.join(f'`{c}`' for c in groups[why])}"
        for why in ("unused", "unknown", "duplicated")
        if why in groups
    )
    removed = {int(key.split(":", 1)[0]) for key in verdicts}
    kept = [code for position, code in enumerate(directive.codes) if position not in removed]
    if kept:
        edit = Edit(line, directive.codes_start + 1, line, directive.codes_end + 1, ", ".join(kept))
        description = "Remove unused codes from the `noqa` directive"
    else:
        start, end = _directive_span(directive, line_text)
        edit = Edit(line, start + 1, line, end + 1, "")
        description = "Remove the unused `noqa` directive"
    return Diagnostic(
        path=path,
        line=line,
        col=directive.start + 1,
        end_line=line,
        end_col=directive.end + 1,
        code=UNUSED_NOQA,
        message=f"Unused `noqa` directive ({detail})",
        severity=Severity.WARNING,
        fix=Fix(description, FixSafety.SAFE, (edit,)),
    )


def _directive_span(directive: NoqaDirective, line_text: str) -> tuple[int, int]:
    """What to delete for the whole directive: its reason up to the next ``#`` (a comment
    of another tool) or the line's end, and the blanks that separated it from the code
    or the comment before it unless another comment follows and needs them."""
    comment = directive.comment
    comment_end = comment.col + len(comment.text)
    rest = line_text[directive.end : comment_end]
    following = rest.find("#")
    if following >= 0:
        return directive.start, directive.end + following
    start = directive.start
    while start > 0 and line_text[start - 1] in " \t":
        start -= 1
    return start, comment_end
