"""Positions of the few nodes that were reported, without libcst's PositionProvider.

``PositionProvider`` records a range for every node of the module, splitting every token
on newlines as it goes: on a 2,000-line file that is several times the cost of the parse
itself, paid whenever a file has a single finding. The same codegen walk can instead
count characters (one addition per token) and remember offsets only for the nodes asked
for; offsets become (line, column) at the end. The semantics are PositionProvider's:
a node's syntactic range (``record_syntactic_position``, hoisted from ``start_node`` /
``end_node`` where the node says so), else its whitespace-inclusive codegen range.
``tests/checker/test_positions.py`` proves the two agree on every node of real files.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState

from ivycheck.checker.base.textedit import LineIndex


@dataclass(frozen=True)
class Span:
    """A node's range: 1-based lines, 0-based code-point columns (as libcst counts)."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass
class _OffsetState(CodegenState):
    wanted: set[cst.CSTNode] = field(default_factory=set)
    offset: int = 0
    found: dict[cst.CSTNode, tuple[int, int]] = field(default_factory=dict)
    statements: set[cst.CSTNode] = field(default_factory=set)
    statement_ranges: list[tuple[int, int, cst.CSTNode]] = field(default_factory=list)
    top_level: set[cst.CSTNode] = field(default_factory=set)
    _starts: list[int] = field(default_factory=list)
    _noted: set[int] = field(default_factory=set)
    """ids of every node the hooks act on: one C-level test per generated node (a
    ``CSTNode`` hashes in Python, and three set tests per node were a third of the walk)."""

    def __post_init__(self) -> None:
        self._noted = {id(node) for node in (*self.wanted, *self.statements, *self.top_level)}

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)
        for token in self.indent_tokens:
            self.offset += len(token)

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        if self.tokens and self.tokens[-1] == self.default_newline:
            self.offset -= len(self.tokens.pop())

    def before_codegen(self, node: cst.CSTNode) -> None:
        self._starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self._starts.pop()
        if id(node) not in self._noted:
            return
        if node in self.wanted and node not in self.found:
            self.found[node] = (start, self.offset)
        if node in self.statements:
            self.statement_ranges.append((start, self.offset, node))
        if node in self.top_level and len(self.found) == len(self.wanted):
            raise _AllFound

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        if id(node) not in self._noted or node not in self.wanted:
            yield
            return
        # Hoisted bounds come from children generated inside this block: want them too.
        for child in (start_node, end_node):
            if child is not None:
                self.wanted.add(child)
                self._noted.add(id(child))
        start = self.offset
        try:
            yield
        finally:
            end = self.offset
            if start_node is not None and start_node in self.found:
                start = self.found[start_node][0]
            if end_node is not None and end_node in self.found:
                end = self.found[end_node][1]
            self.found[node] = (start, end)


class _AllFound(Exception):
    """Every asked-for node is placed: the rest of the module need not be generated."""


@dataclass
class Located:
    """Where the asked-for nodes are: spans, character offsets, and (when asked) the
    whitespace-inclusive ranges of the module's top-level statements, in order."""

    spans: dict[cst.CSTNode, Span]
    offsets: dict[cst.CSTNode, tuple[int, int]]
    statements: list[tuple[int, int, cst.CSTNode]]
    index: LineIndex | None
    rendered_alone: bool = False
    """Whether each statement range is that statement's code generated on its own, equal
    to the source there (else it is its part of the module's code, which may differ)."""

    def statement_at(self, offset: int) -> tuple[int, int, cst.CSTNode] | None:
        """The top-level statement whose range holds ``offset``."""
        number = bisect.bisect_right(self.statements, offset, key=lambda r: r[0]) - 1
        if number < 0:
            return None
        start, end, statement = self.statements[number]
        return (start, end, statement) if start <= offset < end else None


def locate(
    module: cst.Module,
    nodes: Iterable[cst.CSTNode],
    *,
    statements: bool = False,
    owners: Mapping[int, cst.CSTNode] | None = None,
    source: str | None = None,
    statement_lines: Sequence[int] | None = None,
) -> Located:
    """Spans and offsets of ``nodes`` (which must belong to ``module``); with
    ``statements``, also the ranges of the top-level statements holding them.

    Given the module's ``source``, each node's top-level statement (``owners``, from
    :func:`walk.visit_batched`) and each top-level statement's first line (CPython's, from
    the file's summary), only the statements holding nodes are generated, each from the
    offset of its first line, and kept only if it renders to exactly the source there.
    Otherwise one codegen walk of the module, stopping after the statement holding the
    last node."""
    wanted = set(nodes)
    if not wanted:
        return Located({}, {}, [], None)
    if owners is not None and source is not None and statement_lines:
        placed = _by_statement(module, wanted, owners, source, statement_lines)
        if placed is not None:
            return placed
    state = _OffsetState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        wanted=set(wanted),
        statements=set(module.body) if statements else set(),
        top_level=set(module.body),
    )
    # Stopped early, the offsets, lines and statement ranges so far are the whole text's.
    with suppress(_AllFound):
        module._codegen(state)
    return _located(wanted, state, LineIndex("".join(state.tokens)))


def _located(
    wanted: set[cst.CSTNode], state: _OffsetState, lines: LineIndex, rendered_alone: bool = False
) -> Located:
    result = {}
    for node in wanted:
        start, end = state.found[node]
        line, column = lines.position(start)
        end_line, end_column = lines.position(end)
        result[node] = Span(line, column - 1, end_line, end_column - 1)
    offsets = {node: state.found[node] for node in wanted}
    return Located(result, offsets, state.statement_ranges, lines, rendered_alone)


def _by_statement(
    module: cst.Module,
    wanted: set[cst.CSTNode],
    owners: Mapping[int, cst.CSTNode],
    source: str,
    statement_lines: Sequence[int],
) -> Located | None:
    holders: set[int] = set()
    for node in wanted:
        owner = owners.get(id(node))
        if owner is None:
            return None
        holders.add(id(owner))
    first_lines = _first_lines(module, statement_lines)
    if first_lines is None:
        return None
    lines = LineIndex(source)
    state = _OffsetState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        wanted=set(wanted),
    )
    for statement, first_line in zip(module.body, first_lines, strict=True):
        if id(statement) not in holders:
            continue
        start_line = first_line - len(getattr(statement, "leading_lines", ()))
        if not 1 <= start_line <= len(lines.starts):
            return None
        start = state.offset = lines.starts[start_line - 1]
        state.tokens = []
        statement._codegen(state)
        text = "".join(state.tokens)
        if source[start : start + len(text)] != text:
            return None  # CPython's line is not libcst's, or a module without final newline
        state.statement_ranges.append((start, start + len(text), statement))
    if any(node not in state.found for node in wanted):
        return None
    return _located(wanted, state, lines, rendered_alone=True)


def _first_lines(module: cst.Module, statement_lines: Sequence[int]) -> list[int] | None:
    """CPython's first line per libcst top-level statement: ``a = 1; b = 2`` is one
    libcst statement and two of CPython's."""
    found: list[int] = []
    position = 0
    for statement in module.body:
        if position >= len(statement_lines):
            return None
        found.append(statement_lines[position])
        position += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return found if position == len(statement_lines) else None


def spans(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    """The spans of ``nodes`` (which must belong to ``module``)."""
    return locate(module, nodes).spans
