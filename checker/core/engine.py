"""The pure core: source text in, diagnostics (and fixed text) out.

Every front door (the command's workers, the flake8 and mypy plugins, the language server)
builds one :class:`~ivycheck.checker.core.rule.FileUnderCheck` and calls :func:`check_file`
(or :func:`check_source`, and :func:`fix_source` on top of it). There, each active rule's
:meth:`~ivycheck.checker.core.rule.Rule.check` reads the file's one tree; where a front door
wants fix text, each fixable finding's :meth:`~ivycheck.checker.core.rule.Rule.fix` renders
it. Neither raises on bad input: a file that does not parse is one IVY000 diagnostic, a
rule that raises is an IVY999 for that rule and file while the others go on, and anything
else that goes wrong while analysing a file (a stack overflow in a tree walk, say) is an
IVY999 for the file.
"""

from __future__ import annotations

import ast
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ivycheck.checker.base import trees
from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix, FixSafety, Severity
from ivycheck.checker.base.isolation import call_with_deep_stack
from ivycheck.checker.base.textedit import apply_edits
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import FileUnderCheck, Finding, Rule
from ivycheck.checker.noqa.comments import Suppressions, skips_file
from ivycheck.checker.noqa.unused import UNUSED_NOQA, unused_noqa
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex

SYNTAX_ERROR = "IVY000"
INTERNAL_ERROR = "IVY999"
ENGINE_CODES = frozenset({SYNTAX_ERROR, INTERNAL_ERROR})
MAX_FIX_ROUNDS = 10


@dataclass
class FixOutcome:
    """The result of the fix loop on one source text."""

    source: str
    diagnostics: list[Diagnostic]
    applied: int = 0
    problems: list[str] = field(default_factory=list)
    original_diagnostics: list[Diagnostic] = field(default_factory=list)
    """The diagnostics of the text before any fix (the first round's check): what is
    reported if the fixed text cannot be written, without checking that text again."""


def check_source(
    source: str,
    *,
    path: str,
    config: Config,
    rules: Sequence[type[Rule]],
    index: ProjectIndex | None = None,
    relative_path: str | None = None,
    fixes: bool = True,
    edits: bool = True,
    tree: ast.Module | None = None,
) -> list[Diagnostic]:
    """Every diagnostic for one file's text, suppressions applied, sorted by position.

    ``fixes=False`` leaves fixes out (a codegen of the whole module per fixable finding):
    the language server publishes diagnostics without them and asks again, with fixes,
    only when the editor wants code actions. ``edits=False`` keeps each fix's description
    and safety but not its text edits (``Fix.edits`` empty), which is all the text
    reporters show. ``tree``: ``source``'s tree when the caller parsed it already.
    """
    file = FileUnderCheck.of(
        source, path, config, index=index, relative_path=relative_path, tree=tree
    )
    return check_file(file, rules, fixes=fixes, edits=edits)


def check_file(
    file: FileUnderCheck, rules: Sequence[type[Rule]], *, fixes: bool = True, edits: bool = True
) -> list[Diagnostic]:
    """:func:`check_source` for a file already gathered into a :class:`FileUnderCheck`."""
    too_large = size_limit_finding(file.source, file.path, file.config)
    if too_large is not None:
        return [too_large]
    if skips_file(file.source):
        return []
    path = file.path
    try:
        found = call_with_deep_stack(_analyse, file, rules, fixes, edits)
    except RecursionError:
        found = [internal_error(path, "the file is nested too deeply to analyse")]
    except Exception as err:  # noqa: BLE001 - the engine must never crash on a file
        found = [internal_error(path, f"analysis failed: {type(err).__name__}: {err}")]
    return finish(found, file)


def finish(found: list[Diagnostic], file: FileUnderCheck) -> list[Diagnostic]:
    """Selection, unused ``# noqa`` (IVY100: judged on the selected findings before
    suppression), ``--category``, ``# noqa`` and order: the last step of every way of
    checking a file."""
    source, config, relative = file.source, file.config, file.relative_path
    found = [d for d in found if _reported(d.code, config, relative)]
    if config.is_opted_in(UNUSED_NOQA, relative) and not any(d.code in ENGINE_CODES for d in found):
        category = all_rules()[UNUSED_NOQA].CATEGORY.value
        found += [
            replace(d, category=category)
            for d in unused_noqa(
                source,
                found,
                path=file.path,
                known_codes=all_rules().keys(),
                is_enabled=lambda code: config.is_enabled(code, relative),
            )
        ]
    # After IVY100, which judges a directive by every selected finding of any category.
    found = [d for d in found if d.code in ENGINE_CODES or config.reports_category(d.category)]
    if found:
        suppressions = Suppressions(source)
        found = [d for d in found if not suppressions.suppresses(d.line, d.code)]
    return sorted(found, key=lambda d: d.sort_key)


def _reported(code: str, config: Config, relative: str) -> bool:
    """Rules by selection; IVY000/IVY999 always, unless ignored by an explicit prefix."""
    if code in ENGINE_CODES:
        return not config.is_ignored(code, relative)
    return config.is_enabled(code, relative)


def active_rules(rules: Sequence[type[Rule]], file: FileUnderCheck) -> list[type[Rule]]:
    """The rules to run on a file: enabled for its path, looking at its part, and able
    (by their cheap text test) to find something in its text. IVY000/IVY999 are the
    engine's own and never run as rules."""
    config, part, source = file.config, file.part, file.source
    # Cheapest first: the part, then the text test (answered once per text for the
    # rules sharing a trigger), then the selection (a match of the path's globs).
    return [
        rule
        for rule in rules
        if rule.CODE not in ENGINE_CODES
        and rule.applies_to(part)
        and rule.is_relevant(source, config)
        and config.is_enabled(rule.CODE, file.relative_path)
    ]


def _checked(
    rules: Sequence[type[Rule]], file: FileUnderCheck, fixes: bool, edits: bool
) -> list[Diagnostic]:
    """The findings of rules that decide on CPython's tree (:meth:`Rule.check`), with
    their fixes' text when ``fixes and edits``; a rule that raises is one IVY999."""
    tree = file.tree
    found: list[Diagnostic] = []
    for rule in rules:
        try:
            findings = list(rule.check(tree, file))
        except Exception as err:  # noqa: BLE001 - reported as IVY999; the other rules go on
            found.append(_rule_failure(file.path, rule, err))
            continue
        offered = fixes and rule.FIX_SAFETY is not None
        for finding in findings:
            fix = None
            if offered and finding.fix_description is not None:
                fix = (
                    _with_fix_text(rule, finding, file, found)
                    if edits
                    else _untexted_fix(rule, finding)
                )
            found.append(_diagnostic(rule, finding, file.path, fix))
    return found


def _untexted_fix(rule: type[Rule], finding: Finding) -> Fix:
    """The fix a finding offers, without its text edits (what the text reporters show)."""
    assert finding.fix_description is not None and rule.FIX_SAFETY is not None
    return Fix(finding.fix_description, rule.FIX_SAFETY, ())


def _with_fix_text(
    rule: type[Rule], finding: Finding, file: FileUnderCheck, found: list[Diagnostic]
) -> Fix | None:
    """The fix a finding offers with its edit rendered (:meth:`Rule.fix`), or ``None``
    when none can be made; a fix that raises is an IVY999 and the finding stays."""
    try:
        edit = rule.fix(finding, file)
    except Exception as err:  # noqa: BLE001 - a broken fix must not hide the finding
        found.append(_rule_failure(file.path, rule, err, " (in its fix)"))
        edit = None
    if edit is None:
        return None
    assert finding.fix_description is not None and rule.FIX_SAFETY is not None
    return Fix(finding.fix_description, rule.FIX_SAFETY, (edit,))


def _rule_failure(path: str, rule: type[Rule], err: Exception, where: str = "") -> Diagnostic:
    """The IVY999 of a rule that raised, naming where (as a visitor's failure does)."""
    frame = traceback.extract_tb(err.__traceback__)[-1]
    return internal_error(
        path,
        f"rule {rule.CODE} ({rule.NAME}) failed: {type(err).__name__}: {err} "
        f"(in {frame.name}, {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}){where}",
    )


def _diagnostic(rule: type[Rule], finding: Finding, path: str, fix: Fix | None) -> Diagnostic:
    """``finding`` (0-based columns) as a diagnostic (1-based, as flake8 prints), with
    ``fix``: made once, its fix's text rendered before (a copy per finding made with
    ``dataclasses.replace`` was a fifth of the fix text's cost in a file of thousands)."""
    return Diagnostic(
        path=path,
        line=finding.line,
        col=finding.column + 1,
        end_line=finding.end_line,
        end_col=finding.end_column + 1,
        code=rule.CODE,
        message=finding.message,
        severity=finding.severity or rule.SEVERITY,
        fix=fix,
        category=(finding.category or rule.CATEGORY).value,
    )


def _analyse(
    file: FileUnderCheck, rules: Sequence[type[Rule]], fixes: bool, edits: bool
) -> list[Diagnostic]:
    """The active rules' findings, after CPython's verdict on the text (skipped when the
    index already holds a clean summary of exactly this text)."""
    active = active_rules(rules, file)
    if not file.index.summarized_clean(file.relative_path, file.source):
        error = syntax_error_of(file)
        if error is not None:
            return [error]
    return _checked(active, file, fixes, edits) if active else []


def size_limit_finding(source: str, path: str, config: Config) -> Diagnostic | None:
    """One finding instead of a check for text above ``max-file-size`` (every front end
    comes through here): a generated multi-megabyte module would otherwise cost minutes
    and gigabytes, per keystroke in the editor."""
    limit = config.max_file_size
    if len(source) <= limit // 4:  # four bytes a character at most: no need to encode
        return None
    size = len(source.encode("utf-8", "surrogatepass"))
    return None if size <= limit else too_large_finding(path, size, limit)


def too_large_finding(path: str, size: int, limit: int) -> Diagnostic:
    message = (
        f"skipped: the file is {size:,} bytes, more than max-file-size ({limit:,}); "
        "raise max-file-size in the configuration to check it"
    )
    return Diagnostic(path, 1, 1, 1, 1, SYNTAX_ERROR, message, Severity.ERROR)


def ast_syntax_error(source: str, path: str) -> Diagnostic | None:
    """CPython's own verdict on a text, which has exact positions and familiar messages."""
    try:
        trees.parse(source)
    except trees.PARSE_ERRORS as err:
        return _syntax_diagnostic(err, path)
    return None


def syntax_error_of(file: FileUnderCheck) -> Diagnostic | None:
    """:func:`ast_syntax_error` of ``file``, whose tree is then parsed for the rules."""
    try:
        file.tree  # noqa: B018 - parsed here, once, for every rule
    except trees.PARSE_ERRORS as err:
        return _syntax_diagnostic(err, file.path)
    return None


def _syntax_diagnostic(err: Exception, path: str) -> Diagnostic:
    if isinstance(err, SyntaxError):
        line = err.lineno or 1
        col = err.offset or 1
        message = f"SyntaxError: {err.msg}"
        return Diagnostic(path, line, col, line, col, SYNTAX_ERROR, message, Severity.ERROR)
    message = f"cannot parse file: {parse_failure(err)}"
    return Diagnostic(path, 1, 1, 1, 1, SYNTAX_ERROR, message, Severity.ERROR)


def parse_failure(err: Exception) -> str:
    """Why CPython could not read a file, never empty: its parser raises a bare
    ``MemoryError`` (no message) for a file nested too deeply for its stack, such as
    100,000 unary minuses, and the user must still be told what happened."""
    if isinstance(err, MemoryError) and not str(err):
        return "too deeply nested / out of memory while parsing (MemoryError)"
    return str(err) or type(err).__name__


def internal_error(path: str, message: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, 1, 1, INTERNAL_ERROR, message, Severity.ERROR)


def is_applicable(diagnostic: Diagnostic, unsafe: bool) -> bool:
    fix = diagnostic.fix
    return fix is not None and (fix.safety is FixSafety.SAFE or unsafe)


def fix_source(
    source: str,
    *,
    path: str,
    config: Config,
    rules: Sequence[type[Rule]],
    index: ProjectIndex | None = None,
    relative_path: str | None = None,
    unsafe: bool = False,
) -> FixOutcome:
    """Apply fixes until none is left (or ten rounds); never returns unparsable code."""
    file = FileUnderCheck.of(source, path, config, index=index, relative_path=relative_path)
    outcome = FixOutcome(source, [])
    for round_number in range(MAX_FIX_ROUNDS):
        outcome.diagnostics = check_file(replace(file, source=outcome.source), rules)
        if round_number == 0:
            outcome.original_diagnostics = outcome.diagnostics
        fixable = [d for d in outcome.diagnostics if is_applicable(d, unsafe)]
        if not fixable:
            return outcome
        groups = [d.fix.edits for d in fixable if d.fix is not None]
        candidate, applied = apply_edits(outcome.source, groups)
        if not _parses(candidate):
            candidate, applied = _fixes_that_parse_together(outcome.source, groups)
        if not applied:
            codes = ", ".join(sorted({d.code for d in fixable}))
            outcome.problems.append(
                f"{path}: fixes for {codes} would produce code that does not parse; not applied"
            )
            return outcome
        outcome.source = candidate
        outcome.applied += applied
    outcome.diagnostics = check_file(replace(file, source=outcome.source), rules)
    return outcome


def _fixes_that_parse_together(text: str, groups: list[tuple[Edit, ...]]) -> tuple[str, int]:
    """``text`` with as many of the fixes ``groups`` as keep it parsing, taken in order.

    Two fixes of one statement can each be right and wrong together: IVY008 moves ``out``
    after a new ``*`` and IVY006 adds ``*, copy=None`` to the same signature; their edits
    do not overlap, but both applied make two ``*``. A fix left out here is made again,
    from the fixed text, in the next round."""
    chosen: list[tuple[Edit, ...]] = []
    fixed, applied = text, 0
    for group in groups:
        candidate, count = apply_edits(text, [*chosen, group])
        if count == len(chosen) + 1 and _parses(candidate):
            chosen.append(group)
            fixed, applied = candidate, count
    return fixed, applied


def _parses(source: str) -> bool:
    return ast_syntax_error(source, "") is None
