"""The lean position finder agrees with libcst's PositionProvider on every node."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from ivycheck.checker.positions import spans
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
