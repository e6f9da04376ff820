"""The lean position finder agrees with libcst's PositionProvider on every node."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from ivycheck.checker.base import positions
from ivycheck.checker.base.positions import Span, locate, spans
from ivycheck.checker.core import walk
from ivycheck.checker.project.summary import summarize
from tests.helpers import REPO


def _files() -> list[Path]:
    files = sorted((REPO / "checker").glob("*.py")) + sorted((REPO / "runtime").rglob("*.py"))[:10]
    spec = importlib.util.find_spec("numpy")
    assert spec is not None and spec.origin is not None
    files += sorted(Path(spec.origin).parent.glob("_core/*.py"))[:5]
    return files


class _AllNodes(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.nodes: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.nodes.append(node)
        return True


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_node_matches_position_provider(path: Path) -> None:
    module = cst.parse_module(path.read_bytes())
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    collector = _AllNodes()
    module.visit(collector)
    found = spans(module, collector.nodes)
    mismatches = [
        (type(node).__name__, expected[node], found[node])
        for node in collector.nodes
        if (
            expected[node].start.line,
            expected[node].start.column,
            expected[node].end.line,
            expected[node].end.column,
        )
        != (found[node].line, found[node].column, found[node].end_line, found[node].end_column)
    ]
    assert mismatches[:5] == []
    # One node at a time, so hoisted bounds (start_node/end_node) are not asked for too.
    for node in collector.nodes[:: max(1, len(collector.nodes) // 40)]:
        alone = spans(module, [node])[node]
        want = expected[node]
        assert (alone.line, alone.column, alone.end_line, alone.end_column) == (
            want.start.line,
            want.start.column,
            want.end.line,
            want.end.column,
        ), type(node).__name__


def test_only_asked_nodes_are_computed() -> None:
    module = cst.parse_module("import os\n\n\ndef f(x):\n    return os.path.join(x, 'a')\n")
    function = module.body[1]
    assert isinstance(function, cst.FunctionDef)
    [(node, span)] = spans(module, [function.name]).items()
    assert node is function.name
    assert (span.line, span.column, span.end_line, span.end_column) == (4, 4, 4, 5)


def _by_statement_inputs(
    source: str,
) -> tuple[cst.Module, dict[int, cst.CSTNode], tuple[int, ...]]:
    module = cst.parse_module(source)
    owners: dict[int, cst.CSTNode] = {}
    walk.visit_batched(module, [], owners)
    return module, owners, summarize(source, "m.py", "other").statement_lines


def _as_tuple(span: Span) -> tuple[int, int, int, int]:
    return span.line, span.column, span.end_line, span.end_column


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_statement_by_statement_matches_position_provider(path: Path) -> None:
    """Generating only the statements that hold nodes, from CPython's line numbers, gives
    libcst's positions for every node below the top-level statements."""
    source = path.read_text(encoding="utf-8")
    module, owners, lines = _by_statement_inputs(source)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    collector = _AllNodes()
    module.visit(collector)
    nodes = [node for node in collector.nodes if id(node) in owners]
    placed = positions._by_statement(module, set(nodes), owners, source, lines)
    assert placed is not None  # these files take the fast path
    wrong = [
        type(node).__name__
        for node in nodes
        if _as_tuple(placed.spans[node])
        != (
            expected[node].start.line,
            expected[node].start.column,
            expected[node].end.line,
            expected[node].end.column,
        )
    ]
    assert wrong[:5] == []
    for node in nodes[:: max(1, len(nodes) // 30)]:  # one at a time too
        alone = locate(module, [node], owners=owners, source=source, statement_lines=lines)
        assert _as_tuple(alone.spans[node]) == _as_tuple(spans(module, [node])[node])


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\n\n\n# c\n\ndef f():\n    return x",  # no final newline
        "(\n    a\n)\nb = 2\n",  # CPython's line of a parenthesized expression is not libcst's
        "a = 1; b = 2\n\n@d\n@e(\n  1)\nclass C:\n    y = b\n",
        "import os\r\n\r\ndef f():\r\n    return os.sep\r\n",
    ],
)
def test_every_shape_of_module_gets_the_codegen_positions(source: str) -> None:
    module, owners, lines = _by_statement_inputs(source)
    collector = _AllNodes()
    module.visit(collector)
    nodes = [node for node in collector.nodes if id(node) in owners]
    fast = locate(module, nodes, owners=owners, source=source, statement_lines=lines)
    full = spans(module, nodes)
    assert {n: _as_tuple(s) for n, s in fast.spans.items()} == {
        n: _as_tuple(s) for n, s in full.items()
    }
