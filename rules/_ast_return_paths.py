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
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from ivycheck.rules._ast_outflow import PlainOutFlow
from ivycheck.rules._outflow import OUT

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass(frozen=True)
class AstReturnPath:
    """``_return_paths.ReturnPath``: a ``return`` and whether every path to it writes ``out``."""

    node: ast.Return
    covered: bool


class _Undecided(Exception):
    """A statement the walk leaves to libcst."""


def plain_return_paths(flow: PlainOutFlow) -> list[AstReturnPath] | None:
    """Every ``return`` of the plain function (not of nested ones), in source order, or
    ``None`` when it holds a statement judged only on libcst's tree."""
    walk = _Walk(flow)
    try:
        walk.block(flow.function.body, False)
    except _Undecided:
        return None
    return walk.found


class _Walk:
    """``_return_paths._ReturnWalk``: (written, terminated) through the statements."""

    def __init__(self, flow: PlainOutFlow) -> None:
        self.found: list[AstReturnPath] = []
        self.holders = _holders(flow.function, flow.writes)

    def writes(self, node: ast.AST) -> bool:
        """Evaluating ``node`` writes ``out``: it holds a writing call."""
        return id(node) in self.holders

    def block(self, body: Sequence[ast.stmt], written: bool) -> tuple[bool, bool]:
        for statement in body:
            written, terminated = self.statement(statement, written)
            if terminated:
                return written, True
        return written, False

    def statement(self, statement: ast.stmt, written: bool) -> tuple[bool, bool]:
        if isinstance(statement, ast.Return):
            self.found.append(AstReturnPath(statement, written or self.writes(statement)))
            return True, True
        if isinstance(statement, ast.Raise):
            return written, True
        if isinstance(statement, ast.If):
            return self.branch(statement, written)
        if isinstance(statement, ast.For | ast.AsyncFor | ast.While):
            header = statement.test if isinstance(statement, ast.While) else statement.iter
            before = written or self.writes(header)
            self.block(statement.body, before)
            if statement.orelse:
                self.block(statement.orelse, before)
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
            return _merge(outcomes, written)
        if isinstance(statement, _SCOPES):
            return written, False
        if isinstance(statement, ast.Match):
            raise _Undecided
        return written or self.writes(statement), False

    def branch(self, statement: ast.If, written: bool) -> tuple[bool, bool]:
        if _names_out(statement.test):
            self.block(statement.body, True)
            if statement.orelse:
                self.block(statement.orelse, True)
            return True, False
        start = written or self.writes(statement.test)
        body = self.block(statement.body, start)
        other = self.block(statement.orelse, start) if statement.orelse else (start, False)
        return _merge([body, other], start)


def _merge(outcomes: list[tuple[bool, bool]], before: bool) -> tuple[bool, bool]:
    live = [written for written, terminated in outcomes if not terminated]
    if not live:
        return True, True
    return before or all(live), False


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
    for node in ast.walk(function):
        if id(node) in wanted:
            targets.append(node)
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    holders: set[int] = set()
    for current in targets:
        while current is not function and not isinstance(current, _SCOPES):
            holders.add(id(current))
            current = parents[id(current)]
    return holders
