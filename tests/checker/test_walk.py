"""``checker/core/walk.py`` visits exactly the nodes libcst visits, in libcst's order, with the
same visit/leave semantics, on real files (``examples/``, a slice of the standard library,
every rule example)."""

from __future__ import annotations

import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import libcst as cst
import pytest

from ivycheck.checker.core import walk
from ivycheck.checker.core.registry import all_rules
from tests.helpers import REPO

V = TypeVar("V", bound=cst.CSTVisitor)

STDLIB = Path(sysconfig.get_paths()["stdlib"])
SOURCES = [
    *(p.read_text() for p in sorted((REPO / "examples").rglob("*.py")) if "broken" not in p.name),
    *(p.read_text() for p in sorted(STDLIB.glob("*.py"))[:60]),
    *(e.code for rule in all_rules().values() for e in (*rule.VALID, *rule.INVALID)),
]


class Recorder(cst.CSTVisitor):
    def __init__(self, skip: type[cst.CSTNode] | None = None) -> None:
        self.events: list[tuple[str, int]] = []
        self.skip = skip

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", id(node)))
        return not (self.skip is not None and isinstance(node, self.skip))

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.events.append(("leave", id(original_node)))


@pytest.mark.parametrize("skip", [None, cst.FunctionDef])
def test_same_events_as_libcst(skip: type[cst.CSTNode] | None) -> None:
    for source in SOURCES:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue  # the IVY000 examples
        theirs, ours = Recorder(skip), Recorder(skip)
        module.visit(theirs)
        walk.visit(module, ours)
        assert ours.events == theirs.events


class _Events:
    """``visit_<Type>``/``leave_<Type>`` methods recording what they see, shared by a plain
    and a batchable visitor."""

    events: list[tuple[str, int]]

    def visit_Name(self, node: cst.Name) -> None:
        self.events.append(("name", id(node)))

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append(("call", id(node)))

    def leave_Call(self, original_node: cst.Call) -> None:
        self.events.append(("end call", id(original_node)))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.events.append(("end def", id(original_node)))


class TypedRecorder(_Events, cst.CSTVisitor):
    """Only typed methods (``walk`` dispatches those itself), skipping function bodies by
    returning False, leaving only some types."""

    def __init__(self) -> None:
        self.events = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.events.append(("def", id(node)))
        return False

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.events.append(("end class", id(original_node)))


class BatchedRecorder(_Events, cst.BatchableCSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.events = []


def test_typed_visitors_and_batches_see_what_libcst_shows_them() -> None:
    for source in SOURCES:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue
        theirs, ours = TypedRecorder(), TypedRecorder()
        module.visit(theirs)
        walk.visit(module, ours)
        assert ours.events == theirs.events
        batch_theirs, batch_ours = BatchedRecorder(), BatchedRecorder()
        cst.visit_batched(module, [batch_theirs])
        walk.visit_batched(module, [batch_ours], {})
        assert batch_ours.events == batch_theirs.events


def test_owners_are_the_top_level_statements() -> None:
    """Every node below a statement but the token nodes, which this walk skips."""
    module = cst.parse_module("# header\nimport os\n\n\ndef f(x):\n    return os.sep\n")
    owners: dict[int, cst.CSTNode] = {}
    walk.visit_batched(module, [], owners)
    for statement in module.body:
        below = [n for n in _nodes(statement) if type(n) not in walk.TOKEN_TYPES]
        assert len(below) >= 4
        assert {id(node) for node in below} == {
            key for key, owner in owners.items() if owner is statement
        }
    assert id(module) not in owners and id(module.header[0]) not in owners


def test_token_types_hold_only_token_types() -> None:
    """What makes skipping a token node's subtree safe for a walk that wants no tokens."""
    seen: set[type[cst.CSTNode]] = set()
    for source in SOURCES:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue
        for node in _nodes(module):
            if type(node) in walk.TOKEN_TYPES:
                seen.add(type(node))
                assert all(type(c) in walk.TOKEN_TYPES for c in walk.children(node)), node
    assert {cst.Comment, cst.Comma, cst.SimpleWhitespace, cst.LeftParen, cst.Add} <= seen


class CommentRecorder(cst.CSTVisitor):
    """A rule that reads comments (no built-in one does): tokens must be walked for it."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def visit_Comment(self, node: cst.Comment) -> None:
        self.events.append(node.value)

    def leave_Comma(self, original_node: cst.Comma) -> None:
        self.events.append(",")


class BatchedCommentRecorder(cst.BatchableCSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.events: list[str] = []

    def visit_Comment(self, node: cst.Comment) -> None:
        self.events.append(node.value)


class SkippingRecorder(Recorder):
    needs_tokens = False


def _walked_both_ways(module: cst.Module, make: Callable[[], V]) -> tuple[V, V]:
    """Two fresh visitors: the first walked by libcst, the second by ``walk.visit``."""
    theirs, ours = make(), make()
    module.visit(theirs)
    walk.visit(module, ours)
    return theirs, ours


def test_token_nodes_are_walked_for_visitors_that_want_them() -> None:
    for source in SOURCES[:40]:
        module = cst.parse_module(source)
        theirs, ours = _walked_both_ways(module, CommentRecorder)
        assert ours.events == theirs.events
        assert any(theirs.events) or "#" not in source
        batch_theirs, batch_ours = BatchedCommentRecorder(), BatchedCommentRecorder()
        cst.visit_batched(module, [batch_theirs])
        walk.visit_batched(module, [batch_ours, BatchedRecorder()])
        assert batch_ours.events == batch_theirs.events


def test_a_visitor_that_needs_no_tokens_sees_every_other_node_in_order() -> None:
    for source in SOURCES[:40]:
        module = cst.parse_module(source)
        everything, _ = _walked_both_ways(module, Recorder)
        ours = SkippingRecorder()
        walk.visit(module, ours)
        tokens = {id(n) for n in _nodes(module) if type(n) in walk.TOKEN_TYPES}
        assert tokens
        assert ours.events == [e for e in everything.events if e[1] not in tokens]


def test_children_are_libcsts() -> None:
    for source in SOURCES[:80]:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue
        for node in _nodes(module):
            assert [id(c) for c in walk.children(node)] == [id(c) for c in node.children]


def test_nodes_of_a_type_are_libcsts_in_order() -> None:
    kinds = [cst.Arg, cst.Assign, cst.IndentedBlock, cst.Comma, cst.BaseExpression]
    found = dict.fromkeys(kinds, 0)
    for source in SOURCES[:20]:
        module = cst.parse_module(source)
        everything = Recorder()
        module.visit(everything)
        nodes = {id(n): n for n in _nodes(module)}
        visited = [nodes[i] for event, i in everything.events if event == "visit"]
        for kind in kinds:
            ours = [id(n) for n in walk.nodes_of(module, kind)]
            assert ours == [id(n) for n in visited if isinstance(n, kind)], kind
            found[kind] += len(ours)
    assert min(found.values()) > 50, found


def _nodes(module: cst.Module) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            found.append(node)
            return True

    walk.visit(module, Collect())
    return found


def test_batched_calls_each_visitor_in_order() -> None:
    calls: list[str] = []

    class First(cst.BatchableCSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            calls.append(f"first visit {node.value}")

        def leave_Name(self, original_node: cst.Name) -> None:
            calls.append(f"first leave {original_node.value}")

    class Second(cst.BatchableCSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            calls.append(f"second visit {node.value}")

    module = cst.parse_module("a = b\n")
    walk.visit_batched(module, [First(), Second()])
    theirs = list(calls)
    calls.clear()
    cst.MetadataWrapper(module).visit_batched([First(), Second()])
    assert (
        theirs
        == calls
        == [
            "first visit a",
            "second visit a",
            "first leave a",
            "first visit b",
            "second visit b",
            "first leave b",
        ]
    )


def test_attribute_hooks_are_refused_not_skipped() -> None:
    class Hooked(cst.CSTVisitor):
        def visit_Call_func(self, node: cst.Call) -> None:
            pass

    with pytest.raises(TypeError, match="attribute hooks"):
        walk.visit(cst.parse_module("f(x)\n"), Hooked())
