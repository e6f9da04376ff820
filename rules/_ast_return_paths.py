"""Whether every ``return`` of a plain backend function writes ``out``, on CPython's tree.

:mod:`ivycheck.rules._return_paths` walks a function's statements on libcst's tree and
judges each ``return`` against the nodes the out-flow analysis marks as writing ``out``.
For a plain function (:func:`ivycheck.rules._ast_outflow.plain_outflow`) those nodes are
its calls given ``out`` that may write it (:attr:`PlainOutFlow.writes`), and the walk
below gives the same verdicts from CPython's tree: the same statements in the same order
(``a; return b`` is one libcst line, two CPython statements, judged alike), the same
guards (a test naming ``out`` anywhere, as libcst's names include keywords, attributes
and parameters). ``None`` for a ``match`` statement, whose returns libcst judges its own
way.

The walk itself (:class:`ReturnWalk`) is shared: IVY003's ``may_find`` walks the same
statements with its own notion of a write (calls proven to write ``out``) and its own
verdict per return, and must reach the same returns in the same state.
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from ivycheck.rules._ast_facts import child_nodes
from ivycheck.rules._ast_outflow import PlainOutFlow
from ivycheck.rules._vocabulary import OUT

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
"""The nodes opening a scope of their own: what they hold is not the function's."""


@dataclass(frozen=True)
class AstReturnPath:
    """``_return_paths.ReturnPath``: a ``return`` and whether every path to it writes ``out``."""

    node: ast.Return
    covered: bool


class _Undecided(Exception):
    """A statement the walk leaves to libcst."""


def plain_return_paths(flow: PlainOutFlow, *, some: bool = False) -> list[AstReturnPath] | None:
    """Every ``return`` of the plain function (not of nested ones), in source order, or
    ``None`` when it holds a statement judged only on libcst's tree. ``some``: as
    ``_return_paths.return_paths``, ``covered`` when some path to the return writes ``out``."""
    walk = _PlainWalk(flow)
    walk.some = some
    try:
        walk.block(flow.function.body, False)
    except _Undecided:
        return None
    return walk.found


class ReturnWalk(ABC):
    """``_return_paths._ReturnWalk`` on CPython's tree: (written, terminated) through a
    function's statements, each ``return`` handed to :meth:`judge` with whether every path
    to it writes ``out``.

    One walk for every rule judging returns on CPython's tree (IVY001's and IVY003's
    ``find_on_ast``, IVY003's ``may_find``), so that they reach the same returns with the
    same state as libcst's walk: only what writes ``out``, which tests guard it, what a
    return's verdict is and what a ``match`` does differ, and those are the hooks."""

    some = False
    """Written when *some* path writes ``out`` (``_return_paths.return_paths(some=True)``)."""

    @abstractmethod
    def writes(self, node: ast.AST) -> bool:
        """Evaluating ``node`` (a statement, a test, a loop's header, a ``with`` item, a
        ``return``) writes ``out``."""

    @abstractmethod
    def guards(self, test: ast.expr) -> bool:
        """An ``if`` test naming ``out``: both branches run as if ``out`` were written."""

    @abstractmethod
    def judge(self, returned: ast.Return, covered: bool) -> None:
        """A ``return`` reached; ``covered``: every path to it (itself included) writes
        ``out``."""

    @abstractmethod
    def match(self, statement: ast.Match, written: bool) -> None:
        """A ``match`` statement reached with ``written``, before it is taken as a simple
        statement (its cases are not walked)."""

    def stopped(self) -> bool:
        """The verdict is settled: the rest of each block is skipped (taken as
        terminating), which changes no verdict already given."""
        return False

    def block(self, body: Sequence[ast.stmt], written: bool) -> tuple[bool, bool]:
        """(written, terminated) after the statements."""
        for statement in body:
            if self.stopped():
                return True, True
            written, terminated = self.statement(statement, written)
            if terminated:
                return written, True
        return written, False

    def statement(self, statement: ast.stmt, written: bool) -> tuple[bool, bool]:
        if isinstance(statement, ast.Return):
            self.judge(statement, written or self.writes(statement))
            return True, True
        if isinstance(statement, ast.Raise):
            return written, True
        if isinstance(statement, ast.If):
            return self.branch(statement, written)
        if isinstance(statement, ast.For | ast.AsyncFor | ast.While):
            header = statement.test if isinstance(statement, ast.While) else statement.iter
            before = written or self.writes(header)
            body = self.block(statement.body, before)
            if statement.orelse:
                self.block(statement.orelse, before)
            if self.some and not body[1]:
                return body[0], False
            return before, False
        if isinstance(statement, ast.With | ast.AsyncWith):
            items = any(self.writes(item) for item in statement.items)
            return self.block(statement.body, written or items)
        if isinstance(statement, ast.Try | ast.TryStar):
            after_body = self.block(statement.body, written)
            outcomes = [after_body]
            outcomes.extend(self.block(handler.body, written) for handler in statement.handlers)
            if statement.orelse and not after_body[1]:
                outcomes[0] = self.block(statement.orelse, after_body[0])
            if statement.finalbody:
                self.block(statement.finalbody, written)
            return _merge(outcomes, written, self.some)
        if isinstance(statement, SCOPES):
            return written, False
        if isinstance(statement, ast.Match):
            self.match(statement, written)
        return written or self.writes(statement), False

    def branch(self, statement: ast.If, written: bool) -> tuple[bool, bool]:
        if self.guards(statement.test):
            self.block(statement.body, True)
            if statement.orelse:
                self.block(statement.orelse, True)
            return True, False
        start = written or self.writes(statement.test)
        body = self.block(statement.body, start)
        other = self.block(statement.orelse, start) if statement.orelse else (start, False)
        return _merge([body, other], start, self.some)


class _PlainWalk(ReturnWalk):
    """The walk for a plain flow: a node writes ``out`` when it holds one of the flow's
    writing calls, a test guards when it names ``out`` as libcst's names do, every return
    is kept, and a ``match`` leaves the function to libcst."""

    def __init__(self, flow: PlainOutFlow) -> None:
        self.found: list[AstReturnPath] = []
        self.holders = _holders(flow.function, flow.writes)

    def writes(self, node: ast.AST) -> bool:
        return id(node) in self.holders

    def guards(self, test: ast.expr) -> bool:
        return _names_out(test)

    def judge(self, returned: ast.Return, covered: bool) -> None:
        self.found.append(AstReturnPath(returned, covered))

    def match(self, statement: ast.Match, written: bool) -> None:
        raise _Undecided


def _merge(
    outcomes: list[tuple[bool, bool]], before: bool, some: bool = False
) -> tuple[bool, bool]:
    live = [written for written, terminated in outcomes if not terminated]
    if not live:
        return True, True
    return before or (any if some else all)(live), False


def _names_out(test: ast.expr) -> bool:
    """``_ReturnWalk._mentions_out`` for a plain flow (its aliases are ``out`` alone):
    any libcst ``Name`` spelled ``out`` in the test, which includes a keyword's name, an
    attribute's name and a lambda's parameter."""
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and node.id == OUT:
            return True
        if isinstance(node, ast.keyword) and node.arg == OUT:
            return True
        if isinstance(node, ast.Attribute) and node.attr == OUT:
            return True
        if isinstance(node, ast.arg) and node.arg == OUT:
            return True
    return False


def _holders(function: ast.AST, wanted: frozenset[int]) -> set[int]:
    """ids of the nodes holding a wanted node outside any nested scope: the wanted nodes
    and their ancestors below the function or the innermost scope around them
    (``_return_paths._Holders``)."""
    if not wanted:
        return set()
    parents: dict[int, ast.AST] = {}
    targets: list[ast.AST] = []
    stack = [function]
    while stack:
        node = stack.pop()
        if id(node) in wanted:
            targets.append(node)
        children = child_nodes(node)
        for child in children:
            parents[id(child)] = node
        stack.extend(children)
    holders: set[int] = set()
    for current in targets:
        while current is not function and not isinstance(current, SCOPES):
            holders.add(id(current))
            current = parents[id(current)]
    return holders
