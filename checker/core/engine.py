"""The pure core: source text in, diagnostics (and fixed text) out.

:func:`run_rules` is the one place rules run over a module: the active rules' instances
share one :class:`RuleContext` and one batched walk, and a rule that raises is reported
as IVY999 for that file while the others go on. Two front doors call it:
:func:`check_source` (and :func:`fix_source` on top of it) for a whole file, used by the
CLI's worker processes, the flake8 plugin and the language server's code actions; and
:class:`~ivycheck.checker.core.incremental.IncrementalChecker`, the language server's check
of an edited buffer, which runs it over only the definitions that changed. Both hand it
the file as one :class:`~ivycheck.checker.core.rule.FileUnderCheck`. Neither
raises on bad input: a file that does not parse is one IVY000 diagnostic, and anything
else that goes wrong while analysing a file (a stack overflow in a tree walk, say) is an
IVY999 for the file.
"""

from __future__ import annotations

import ast
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

import libcst as cst

from ivycheck.checker.base import trees
from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix, FixSafety, Severity
from ivycheck.checker.base.isolation import call_with_deep_stack
from ivycheck.checker.base.positions import Located, Span, locate
from ivycheck.checker.base.textedit import apply_edits, minimal_edit, replacement_edit
from ivycheck.checker.core import walk
from ivycheck.checker.core.narrowing import in_file, narrowed
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import (
    AstFinding,
    Category,
    FileUnderCheck,
    Report,
    Rule,
    RuleContext,
    ScopeEntry,
    ScopeExit,
    checks_on_ast,
)
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
        found = call_with_deep_stack(_analyse, file, rules, fixes, edits=edits)
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
    config = file.config
    return [
        rule
        for rule in rules
        if rule.CODE not in ENGINE_CODES
        and rule.applies_to(file.part)
        and config.is_enabled(rule.CODE, file.relative_path)
        and rule.is_relevant(file.source, config)
    ]


@dataclass
class RuleRun:
    """The rules run over one module: their instances, holding what each reported."""

    context: RuleContext
    instances: list[Rule]
    owners: dict[int, cst.CSTNode]
    """For each node visited, its top-level statement (what :func:`locate` splices by)."""

    def findings(self) -> Iterator[tuple[Rule, Report]]:
        for instance in self.instances:
            for report in instance.reports:
                yield instance, report

    def failures(self) -> list[Diagnostic]:
        """One IVY999 per rule that raised (during the walk or while its fix was made)."""
        return [
            internal_error(
                self.context.path,
                f"rule {instance.CODE} ({instance.NAME}) failed: {instance.failure}",
            )
            for instance in self.instances
            if instance.failure is not None
        ]


def run_rules(module: cst.Module, file: FileUnderCheck, rules: Sequence[type[Rule]]) -> RuleRun:
    """Run ``rules`` (already filtered by :func:`active_rules`) over ``module``, whose
    text is ``file.source``: one shared context, one batched walk with the function stack
    kept by ``ScopeEntry``/``ScopeExit`` around the rules."""
    context = RuleContext.parsed(file, module)
    instances = [rule(context) for rule in rules]
    owners: dict[int, cst.CSTNode] = {}
    walk.visit_batched(module, [ScopeEntry(context), *instances, ScopeExit(context)], owners)
    return RuleRun(context, instances, owners)


def _able_to_find(
    active: list[type[Rule]], file: FileUnderCheck
) -> tuple[list[type[Rule]], ast.Module | None]:
    """The active rules that CPython's tree of the file leaves a chance to find something
    (:meth:`Rule.may_find`), and the tree; it is parsed only when a rule asks."""
    asking = [rule for rule in active if _asks_tree(rule)]
    if not asking:
        return active, None
    tree = file.tree
    able = [rule for rule in active if not _asks_tree(rule) or rule.may_find(tree, file)]
    return able, tree


def _found_on_ast(
    active: list[type[Rule]], tree: ast.Module, file: FileUnderCheck, fixes: bool
) -> tuple[list[Diagnostic], list[type[Rule]]]:
    """The findings of the rules that decide the file on CPython's tree
    (:meth:`Rule.find_on_ast`), and the rules left for libcst. A rule that raises there is
    left for libcst, whose check reports the failure if it has one."""
    found: list[Diagnostic] = []
    left: list[type[Rule]] = []
    for rule in active:
        answer = None
        if getattr(rule.find_on_ast, "__func__", None) is not _DEFAULT_FIND_ON_AST:
            try:
                answer = rule.find_on_ast(tree, file)
            except Exception:  # noqa: BLE001 - libcst's check decides and reports instead
                answer = None
        if answer is None:
            left.append(rule)
        else:
            found.extend(_ast_diagnostic(rule, finding, file.path, fixes) for finding in answer)
    return found, left


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
        for finding in findings:
            found.append(_ast_diagnostic(rule, finding, file.path, fixes))
            if fixes and edits and found[-1].fix is not None:
                found[-1] = _with_fix_text(rule, finding, file, found[-1], found)
    return found


def _with_fix_text(
    rule: type[Rule],
    finding: AstFinding,
    file: FileUnderCheck,
    diagnostic: Diagnostic,
    found: list[Diagnostic],
) -> Diagnostic:
    """``diagnostic`` with its fix's edit rendered (:meth:`Rule.fix`), or without a fix
    when none can be made; a fix that raises is an IVY999 and the finding stays."""
    assert diagnostic.fix is not None
    try:
        edit = rule.fix(finding, file)
    except Exception as err:  # noqa: BLE001 - a broken fix must not hide the finding
        found.append(_rule_failure(file.path, rule, err, " (in its fix)"))
        edit = None
    if edit is None:
        return replace(diagnostic, fix=None)
    return replace(diagnostic, fix=Fix(diagnostic.fix.description, diagnostic.fix.safety, (edit,)))


def _rule_failure(path: str, rule: type[Rule], err: Exception, where: str = "") -> Diagnostic:
    """The IVY999 of a rule that raised, naming where (as a visitor's failure does)."""
    frame = traceback.extract_tb(err.__traceback__)[-1]
    return internal_error(
        path,
        f"rule {rule.CODE} ({rule.NAME}) failed: {type(err).__name__}: {err} "
        f"(in {frame.name}, {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}){where}",
    )


def _ast_diagnostic(rule: type[Rule], finding: AstFinding, path: str, fixes: bool) -> Diagnostic:
    """What :func:`to_diagnostic` makes of the same finding, with a fix's text edits left out."""
    fix = None
    if fixes and finding.fix_description is not None and rule.FIX_SAFETY is not None:
        fix = Fix(finding.fix_description, rule.FIX_SAFETY, ())
    span = Span(finding.line, finding.column, finding.end_line, finding.end_column)
    severity = finding.severity or rule.SEVERITY
    category = finding.category or rule.CATEGORY
    return _placed(path, span, rule.CODE, finding.message, severity, fix, category)


def _asks_tree(rule: type[Rule]) -> bool:
    return getattr(rule.may_find, "__func__", None) is not _DEFAULT_MAY_FIND


_DEFAULT_MAY_FIND = Rule.may_find.__func__  # type: ignore[attr-defined]
_DEFAULT_FIND_ON_AST = Rule.find_on_ast.__func__  # type: ignore[attr-defined]


def _analyse(
    file: FileUnderCheck,
    rules: Sequence[type[Rule]],
    fixes: bool,
    narrow: bool = True,
    edits: bool = True,
) -> list[Diagnostic]:
    original, source, path = file, file.source, file.path
    active = active_rules(rules, file)
    # CPython's verdict first, unless the index already has it for exactly this text: its
    # messages are the familiar ones, and libcst's native parser must never see nesting
    # CPython rejects (100,000 parentheses overflow its stack and kill the process).
    clean = file.index.summarized_clean(file.relative_path, source)
    if not clean:
        error = syntax_error_of(file)
        if error is not None:
            return [error]
    checked = [rule for rule in active if checks_on_ast(rule)]
    active = [rule for rule in active if not checks_on_ast(rule)]
    decided = _checked(checked, file, fixes, edits) if checked else []
    if not active:
        return decided
    active, tree = _able_to_find(active, file)
    if tree is not None and active and not (fixes and edits):
        on_ast, active = _found_on_ast(active, tree, file, fixes)
        decided += on_ast
    if not active:
        return decided
    # (clean: the summary is this text's, hashed once above)
    summary = file.index.files.get(file.relative_path) if clean else None
    statement_lines = summary.statement_lines if summary is not None else None
    narrowed_text = None
    # Only rules that ask CPython's tree can say which definitions they need.
    if narrow and tree is not None and all(_asks_tree(rule) for rule in active):
        narrowed_text = narrowed(file, tree, active)
    # From here on only libcst's tree is read: CPython's goes before libcst's is made (a
    # big file's two trees side by side were the run's peak memory).
    del tree
    if narrowed_text is not None:
        # Every line of the narrowed text is the file's own or inside a placeholder: spans
        # and edits found in it are the file's (checker/core/narrowing.py says why).
        file, source = replace(file, source=narrowed_text.source), narrowed_text.source
        statement_lines = narrowed_text.statement_lines
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as err:
        return [_libcst_syntax_error(err, path)]
    run = run_rules(module, file, active)
    reports = [report for _, report in run.findings()]
    targets = [r.replaced_node for r in reports if fixes and r.replacement is not None]
    located = locate(
        module,
        [r.node for r in reports] + targets,
        statements=bool(targets),
        owners=run.owners,
        source=source,
        statement_lines=statement_lines,
    )
    context = run.context
    diagnostics: list[Diagnostic] = []
    for instance, report in run.findings():
        span = located.spans[report.node]
        try:
            diagnostics.append(to_diagnostic(instance, report, context, span, fixes, located))
        except Exception as err:  # noqa: BLE001 - a broken fix must not hide the finding
            instance.failure = instance.failure or f"{type(err).__name__}: {err} (in its fix)"
            diagnostics.append(to_diagnostic(instance, report, context, span, False))
    if narrowed_text is not None and not in_file(diagnostics, narrowed_text, original.source):
        return _analyse(original, rules, fixes, narrow=False, edits=edits)
    return decided + diagnostics + run.failures()


def to_diagnostic(
    rule: Rule,
    report: Report,
    context: RuleContext,
    span: Span,
    with_fix: bool,
    located: Located | None = None,
) -> Diagnostic:
    return _placed(
        context.path,
        span,
        report.code,
        report.message,
        report.severity or rule.SEVERITY,
        _to_fix(rule, report, context, located) if with_fix else None,
        report.category or rule.CATEGORY,
    )


def _placed(
    path: str,
    span: Span,
    code: str,
    message: str,
    severity: Severity,
    fix: Fix | None,
    category: Category,
) -> Diagnostic:
    """A finding at ``span`` (0-based columns) as a diagnostic (1-based, as flake8 prints)."""
    return Diagnostic(
        path=path,
        line=span.line,
        col=span.column + 1,
        end_line=span.end_line,
        end_col=span.end_column + 1,
        code=code,
        message=message,
        severity=severity,
        fix=fix,
        category=category.value,
    )


def _to_fix(
    rule: Rule, report: Report, context: RuleContext, located: Located | None
) -> Fix | None:
    if report.replacement is None or rule.FIX_SAFETY is None:
        return None
    splice = _statement_splice(report, context, located) if located is not None else None
    if splice is not None and located is not None and located.index is not None:
        edit = replacement_edit(context.source, *splice, located.index)
    else:
        edit = _module_edit(report, context)
    if edit is None:
        return None
    return Fix(report.fix_description or f"Fix {rule.CODE}", rule.FIX_SAFETY, (edit,))


def _statement_splice(
    report: Report, context: RuleContext, located: Located
) -> tuple[int, int, str] | None:
    """The fix as (start, end, new text) of the one top-level statement holding the node.

    Invariant: a fix costs in proportion to its statement, not to the module, so a file
    with many findings is not quadratic (``benchmarks/lint_throughput.py`` runs trees
    full of fixable findings). A top-level statement renders the same alone as inside
    its module (checked: its text must equal the source's slice, else ``None`` and the
    whole-module path decides; ``locate`` already compared it when it placed statements
    one by one).
    """
    target = report.replaced_node
    offsets = located.offsets.get(target)
    holder = located.statement_at(offsets[0]) if offsets is not None else None
    if holder is None:
        return None
    start, end, statement = holder
    module = context.module
    if not located.rendered_alone and module.code_for_node(statement) != context.source[start:end]:
        return None
    replacement = report.replacement
    new: cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]
    if target is statement:
        new = cast(cst.CSTNode, replacement)
    elif isinstance(replacement, cst.RemovalSentinel):
        new = statement.deep_remove(target)
    else:
        new = statement.deep_replace(target, cast(cst.CSTNode, replacement))
    if isinstance(new, cst.RemovalSentinel):
        text = ""
    elif isinstance(new, cst.FlattenSentinel):
        text = "".join(module.code_for_node(node) for node in new.nodes)
    else:
        text = module.code_for_node(new)
    return start, end, text


def _module_edit(report: Report, context: RuleContext) -> Edit | None:
    module = context.module
    fixed: cst.CSTNode | cst.RemovalSentinel
    if isinstance(report.replacement, cst.RemovalSentinel):
        fixed = module.deep_remove(report.replaced_node)
    else:
        # deep_replace is typed for nodes, but its transformer takes a FlattenSentinel too.
        replacement = cast(cst.CSTNode, report.replacement)
        fixed = module.deep_replace(report.replaced_node, replacement)
    assert isinstance(fixed, cst.Module)
    return minimal_edit(context.source, fixed.code)


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


def _libcst_syntax_error(err: cst.ParserSyntaxError, path: str) -> Diagnostic:
    """For the rare file CPython accepts and libcst's grammar does not."""
    line = max(err.raw_line, 1)
    col = err.raw_column + 1
    return Diagnostic(
        path,
        line,
        col,
        line,
        col,
        SYNTAX_ERROR,
        f"cannot parse file with libcst: {err.message}",
        Severity.ERROR,
    )


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
            codes = ", ".join(sorted({d.code for d in fixable}))
            outcome.problems.append(
                f"{path}: fixes for {codes} would produce code that does not parse; not applied"
            )
            return outcome
        outcome.source = candidate
        outcome.applied += applied
    outcome.diagnostics = check_file(replace(file, source=outcome.source), rules)
    return outcome


def _parses(source: str) -> bool:
    if ast_syntax_error(source, "") is not None:
        return False
    try:
        call_with_deep_stack(cst.parse_module, source)
    except Exception:  # noqa: BLE001 - any failure means: do not write
        return False
    return True
