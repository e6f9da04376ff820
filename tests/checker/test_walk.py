"""``checker/walk.py`` visits exactly the nodes libcst visits, in libcst's order, with the
same visit/leave semantics, on real files (``examples/``, a slice of the standard library,
every rule example)."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import libcst as cst
import pytest

from ivycheck.checker import walk
from ivycheck.checker.registry import all_rules
from tests.helpers import REPO

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
    module = cst.parse_module("# header\nimport os\n\n\ndef f(x):\n    return os.sep\n")
    owners: dict[int, cst.CSTNode] = {}
    walk.visit_batched(module, [], owners)
    for statement in module.body:
        below = Recorder()
        walk.visit(statement, below)
        assert {node for _, node in below.events} <= {
            key for key, owner in owners.items() if owner is statement
        }
    assert id(module) not in owners and id(module.header[0]) not in owners


def test_children_are_libcsts() -> None:
    for source in SOURCES[:80]:
        try:
            module = cst.parse_module(source)
        except cst.ParserSyntaxError:
            continue
        for node in _nodes(module):
            assert [id(c) for c in walk.children(node)] == [id(c) for c in node.children]


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
