"""Re-checking an edited buffer by re-analysing only the top-level definitions that changed.

In the editor a keystroke changes one function of a file that may have thousands of
lines; parsing and walking the whole file again costs hundreds of milliseconds. A file
is a sequence of top-level statements ("chunks"). Definitions (``def``/``class``) are
analysed against the *context*: every other top-level statement (imports, attribute
assignments, wrappers applied by assignment). When the context, the configuration and
what other files know are unchanged, a definition whose text is unchanged has the same
findings as before, shifted to its new line. So only changed definitions are parsed and
walked, together with the context, as a small module of their own.

This holds only for rules whose findings about a definition depend on nothing but that
definition, the context and the project index: rules declare it with ``Rule.LOCAL``. A
file where any active rule is not local (the out-flow rules follow helpers across
functions), a file that does not parse, or one whose chunks cannot be reassembled exactly
(``a = 1; def`` on one line, mixed indentation) is checked whole by
:func:`~ivycheck.checker.core.engine.check_file`. Both paths take the file as one
:class:`~ivycheck.checker.core.rule.FileUnderCheck`, choose the rules with
:func:`~ivycheck.checker.core.engine.active_rules` and run them with
:func:`~ivycheck.checker.core.engine.run_rules`; ``tests/checker/test_incremental.py`` checks
that they give the same diagnostics.
"""

from __future__ import annotations

import ast
import bisect
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import libcst as cst

from ivycheck.checker.base import pyast
from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.base.isolation import call_with_deep_stack
from ivycheck.checker.base.positions import Span, spans
from ivycheck.checker.core.chunks import Chunk, file_chunks
from ivycheck.checker.core.engine import (
    active_rules,
    ast_syntax_error,
    check_file,
    finish,
    run_rules,
    size_limit_finding,
    to_diagnostic,
)
from ivycheck.checker.core.rule import FileUnderCheck, Rule, always_relevant
from ivycheck.checker.noqa.comments import skips_file
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex


@dataclass(frozen=True)
class _Parsed:
    statement: cst.SimpleStatementLine | cst.BaseCompoundStatement
    default_indent: str
    default_newline: str


@dataclass
class IncrementalChecker:
    """One document's memory between checks: parsed chunks and findings per definition."""

    _parsed: dict[str, _Parsed | None] = field(default_factory=dict)
    _findings: dict[tuple[str, str], list[Diagnostic]] = field(default_factory=dict)
    incremental_runs: int = 0
    full_runs: int = 0
    asked: int = 0
    """Definitions the last incremental check had no findings for (new or changed text):
    each is asked of CPython's tree first."""
    reanalysed: int = 0
    """Of those, the definitions parsed and walked with libcst (some rule's
    :meth:`Rule.may_find` said it could find something there)."""

    def check(
        self,
        source: str,
        *,
        path: str,
        config: Config,
        rules: Sequence[type[Rule]],
        index: ProjectIndex,
        relative_path: str,
        index_version: object,
    ) -> list[Diagnostic]:
        """The same diagnostics as ``check_source(source, ...)``, usually much sooner."""
        too_large = size_limit_finding(source, path, config)
        if too_large is not None:
            return [too_large]
        if skips_file(source):
            return []
        file = FileUnderCheck(source, path, relative_path, config, index)
        try:
            found = call_with_deep_stack(self._incremental, file, rules, index_version)
        except RecursionError:
            found = None
        if found is None:
            self.full_runs += 1
            self._parsed.clear()
            self._findings.clear()
            return check_file(file, rules, fixes=False)
        self.incremental_runs += 1
        return finish(found, file)

    def _incremental(
        self, file: FileUnderCheck, rules: Sequence[type[Rule]], index_version: object
    ) -> list[Diagnostic] | None:
        source, path, config, index = file.source, file.path, file.config, file.index
        active = active_rules(rules, file)
        if not active or not all(rule.LOCAL for rule in active):
            return None
        known_clean = index.clean_summary(file.relative_path, source) is not None
        if not known_clean and ast_syntax_error(source, path):
            return None  # the full check reports it; libcst must not see what CPython rejects
        try:
            tree = pyast.parse(source)  # the tree the buffer's summary was made from
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        chunks = file_chunks(source, tree)
        if chunks is None:
            return None
        context = "".join(c.text for c in chunks if not c.definition)
        filters = [rule.definition_filter(context, config, index) for rule in active]
        if always_relevant in filters:
            needed = [True] * len(chunks)
        else:
            needed = [
                not chunk.definition or any(relevant(chunk.text) for relevant in filters)
                for chunk in chunks
            ]
        key = hashlib.blake2b(
            "|".join(
                [context, config.digest(), repr(index_version), *(r.CODE for r in active)]
            ).encode(),
            digest_size=16,
        ).hexdigest()
        diagnostics: list[Diagnostic] = []
        changed: list[int] = []
        for number, chunk in enumerate(chunks):
            if not needed[number] or not chunk.definition:
                continue  # no active rule can find anything in this definition
            cached = self._findings.get((chunk.text, key))
            if cached is None:
                changed.append(number)
            else:
                diagnostics.extend(_shift(cached, chunk.start_line - 1, path))
        # CPython's tree decides which changed definitions libcst must see (the rules'
        # may_find, asked of the context with one definition: what the rules would run
        # on, a definition's findings depending on nothing else for a local rule).
        context_statements = [c.statement for c in chunks if not c.definition and c.statement]
        able = {
            number: _able_to_find(active, context_statements, chunks[number], file)
            for number in changed
        }
        walked = [number for number in changed if able[number]]
        # No definition to analyse: the context alone may still hold findings.
        running = (
            set().union(*able.values())
            if changed
            else _able_to_find(active, context_statements, None, file)
        )
        included = (
            [n for n, chunk in enumerate(chunks) if not chunk.definition or able.get(n)]
            if running
            else []
        )
        self.asked, self.reanalysed = len(changed), len(walked)
        parsed = [self._parse(chunks[n].text) for n in included]
        if any(p is None for p in parsed):
            return None
        layouts = {(p.default_indent, p.default_newline) for p in parsed if p is not None}
        if len(layouts) > 1:
            return None
        fresh = self._analyse(
            [chunks[n] for n in included],
            [p for p in parsed if p is not None],
            file,
            [rule for rule in active if rule in running],
        )
        if fresh is None:
            return None
        findings: dict[tuple[str, str], list[Diagnostic]] = {
            (chunks[number].text, key): [] for number in changed if not able[number]
        }
        for chunk, chunk_diagnostics in fresh:
            diagnostics.extend(chunk_diagnostics)
            if chunk.definition:
                findings[(chunk.text, key)] = _shift(chunk_diagnostics, 1 - chunk.start_line, path)
        for chunk in chunks:
            if chunk.definition and (chunk.text, key) in self._findings:
                findings.setdefault((chunk.text, key), self._findings[(chunk.text, key)])
        self._findings = findings
        self._parsed = {c.text: self._parsed[c.text] for c in chunks if c.text in self._parsed}
        return diagnostics

    def _parse(self, text: str) -> _Parsed | None:
        if text not in self._parsed:
            self._parsed[text] = _parse_chunk(text)
        return self._parsed[text]

    def _analyse(
        self,
        chunks: list[Chunk],
        parsed: list[_Parsed],
        file: FileUnderCheck,
        active: list[type[Rule]],
    ) -> list[tuple[Chunk, list[Diagnostic]]] | None:
        """Run the rules over the given chunks as one small module; findings per chunk."""
        if not chunks:
            return []
        layout = parsed[0]
        module = cst.Module(
            body=[p.statement for p in parsed],
            default_indent=layout.default_indent,
            default_newline=layout.default_newline,
        )
        run = run_rules(
            module, replace(file, source="".join(chunk.text for chunk in chunks)), active
        )
        located = spans(module, [report.node for _, report in run.findings()])
        starts = [0]
        for chunk in chunks:
            starts.append(starts[-1] + chunk.line_count)
        per_chunk: list[list[Diagnostic]] = [[] for _ in chunks]
        for instance, report in run.findings():
            span = located[report.node]
            number = max(0, bisect.bisect_right(starts, span.line - 1) - 1)
            offset = chunks[number].start_line - 1 - starts[number]
            moved = Span(span.line + offset, span.column, span.end_line + offset, span.end_column)
            per_chunk[number].append(to_diagnostic(instance, report, run.context, moved, False))
        per_chunk[0].extend(run.failures())
        return list(zip(chunks, per_chunk, strict=True))


def _able_to_find(
    active: list[type[Rule]],
    context: list[ast.stmt],
    definition: Chunk | None,
    file: FileUnderCheck,
) -> set[type[Rule]]:
    """The active rules whose :meth:`Rule.may_find` leaves them a chance to find something
    in the file's context with ``definition`` (the context alone for ``None``).

    The tree asked is the file's own statements, so their positions are the file's (a
    rule may read ``file.source`` at a node's position); it is the tree of the text the
    rules run on, the chunks' texts joined, but for where its lines start. A local rule's
    findings about a definition depend on nothing but the definition and the context,
    so a rule that cannot find anything there finds nothing in the module analysed."""
    body = [*context]
    if definition is not None:
        if definition.statement is None:
            return set(active)
        body.append(definition.statement)
    tree = ast.Module(body=body, type_ignores=[])
    return {rule for rule in active if rule.may_find(tree, file)}


def _shift(diagnostics: list[Diagnostic], lines: int, path: str) -> list[Diagnostic]:
    return [
        replace(d, line=d.line + lines, end_line=d.end_line + lines, path=path) for d in diagnostics
    ]


def _parse_chunk(text: str) -> _Parsed | None:
    """One chunk as one statement that renders back to exactly its text, else ``None``."""
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    if len(module.body) != 1 or module.footer:
        return None
    statement = module.body[0].with_changes(
        leading_lines=[*module.header, *module.body[0].leading_lines]
    )
    alone = cst.Module(
        body=[statement],
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        has_trailing_newline=module.has_trailing_newline,
    )
    if alone.code != text:
        return None
    return _Parsed(statement, module.default_indent, module.default_newline)


__all__ = ["IncrementalChecker"]
