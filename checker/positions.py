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
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState

from ivycheck.checker.textedit import LineIndex


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
    _starts: list[int] = field(default_factory=list)

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
        if node in self.wanted and node not in self.found:
            self.found[node] = (start, self.offset)
        if node in self.statements:
            self.statement_ranges.append((start, self.offset, node))

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        if node not in self.wanted:
            yield
            return
        # Hoisted bounds come from children generated inside this block: want them too.
        for child in (start_node, end_node):
            if child is not None:
                self.wanted.add(child)
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


@dataclass
class Located:
    """Where the asked-for nodes are: spans, character offsets, and (when asked) the
    whitespace-inclusive ranges of the module's top-level statements, in order."""

    spans: dict[cst.CSTNode, Span]
    offsets: dict[cst.CSTNode, tuple[int, int]]
    statements: list[tuple[int, int, cst.CSTNode]]
    index: LineIndex | None

    def statement_at(self, offset: int) -> tuple[int, int, cst.CSTNode] | None:
        """The top-level statement whose range holds ``offset``."""
        number = bisect.bisect_right(self.statements, offset, key=lambda r: r[0]) - 1
        if number < 0:
            return None
        start, end, statement = self.statements[number]
        return (start, end, statement) if start <= offset < end else None


def locate(
    module: cst.Module, nodes: Iterable[cst.CSTNode], *, statements: bool = False
) -> Located:
    """Spans and offsets of ``nodes`` (which must belong to ``module``), in one codegen walk."""
    wanted = set(nodes)
    if not wanted:
        return Located({}, {}, [], None)
    state = _OffsetState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        wanted=set(wanted),
        statements=set(module.body) if statements else set(),
    )
    module._codegen(state)
    lines = LineIndex("".join(state.tokens))
    result = {}
    for node in wanted:
        start, end = state.found[node]
        line, column = lines.position(start)
        end_line, end_column = lines.position(end)
        result[node] = Span(line, column - 1, end_line, end_column - 1)
    offsets = {node: state.found[node] for node in wanted}
    return Located(result, offsets, state.statement_ranges, lines)


def spans(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    """The spans of ``nodes`` (which must belong to ``module``)."""
    return locate(module, nodes).spans
