"""Whether every ``return`` of a backend function comes after (or with) a write of ``out``.

IVY003's question. A function with ``support_native_out`` is handed the caller's native
buffer and trusted to fill it: the wrapper does not copy the result in afterwards. So each
path to a ``return`` must write ``out`` on the way (forward it to a native function, or
``inplace_update`` it), which the out-flow analysis (:mod:`ivycheck.rules._outflow`) marks
as the nodes of :attr:`FunctionOutFlow.writes`; this module walks the statements in order
and judges each ``return``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from ivycheck.checker.rule_api import walk
from ivycheck.rules._outflow import NEW_SCOPES, FunctionOutFlow


@dataclass(frozen=True)
class ReturnPath:
    """A ``return`` statement and whether ``out`` is written on every path that reaches it
    (with ``some=True``: on at least one of them)."""

    node: cst.Return
    covered: bool


def return_paths(flow: FunctionOutFlow, *, some: bool = False) -> list[ReturnPath]:
    """Every ``return`` of ``flow.function`` (not of nested functions), in source order.

    ``some``: ``covered`` says whether *some* path to the return writes ``out`` (branches
    merged with "any", a loop's body taken as run), so that a message may say "never
    writes ``out``" only where no path does (``matrix_rank``: one branch calls the native
    function with ``out``, the other builds a new tensor, and both reach the return)."""
    return _ReturnWalk(flow, some=some).returns(flow.function.body)


class _Holders(cst.CSTVisitor):
    """One walk that finds every node holding a wanted node without a scope (function,
    lambda, class) on the way down: the wanted nodes themselves and their ancestors since
    the innermost enclosing scope. Every "does this statement write ``out``?" is then a set
    lookup, so a function body is walked once however many statements it has
    (``benchmarks/lint_throughput.py`` times the rule phase on generated backends)."""

    needs_tokens = False  # walk.visit: the wanted nodes are names and calls

    def __init__(self, wanted: set[int]) -> None:
        super().__init__()
        self.wanted = wanted
        self.holders: set[int] = set()
        self.stack: list[cst.CSTNode] = []
        self.scopes: list[int] = []
        """Stack positions of the scope nodes on the stack."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.wanted:
            self.holders.add(id(node))
            start = self.scopes[-1] + 1 if self.scopes else 0
            self.holders.update(id(above) for above in self.stack[start:])
        if type(node) in NEW_SCOPES:
            self.scopes.append(len(self.stack))
        self.stack.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.stack.pop()
        if type(original_node) in NEW_SCOPES:
            self.scopes.pop()


@dataclass
class _State:
    written: bool
    terminated: bool = False


class _ReturnWalk:
    """Walks the statements in order, tracking whether ``out`` is written on the current path.

    Guard-aware: a branch whose test mentions ``out`` (``if ivy.exists(out):``, ``if out is
    None:``) and everything after it counts as handled, which covers Ivy's documented shape
    ``if ivy.exists(out): return ivy.inplace_update(out, ret)`` / ``return ret``.
    """

    def __init__(self, flow: FunctionOutFlow, *, some: bool = False) -> None:
        self.flow = flow
        self.some = some
        self.found: list[ReturnPath] = []
        self._writing: set[int] | None = None

    def returns(self, body: Sequence[cst.BaseStatement] | cst.BaseSuite) -> list[ReturnPath]:
        if isinstance(body, cst.BaseSuite):
            body = _suite(body)
        self._block(body, _State(written=False))
        return self.found

    def _writes(self, node: cst.CSTNode | None) -> bool:
        """Whether evaluating ``node`` writes ``out``: it holds a covering node, not inside
        a nested function, lambda or class."""
        if node is None or not self.flow.writes:
            return False
        if self._writing is None:
            holders = _Holders(set(self.flow.writes))
            walk(self.flow.function.body, holders)
            self._writing = holders.holders
        return id(node) in self._writing

    def _mentions_out(self, node: cst.CSTNode) -> bool:
        aliases = self.flow.aliases

        class Find(cst.CSTVisitor):
            found = False

            def visit_Name(self, name: cst.Name) -> None:
                if name.value in aliases:
                    Find.found = True

        Find.found = False
        walk(node, Find())
        return Find.found

    def _block(self, body: Sequence[cst.BaseStatement], state: _State) -> _State:
        for statement in body:
            if state.terminated:
                break
            state = self._statement(statement, state)
        return state

    def _statement(self, statement: cst.BaseStatement, state: _State) -> _State:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Return):
                    covered = state.written or self._writes(small)
                    self.found.append(ReturnPath(small, covered))
                    return _State(True, terminated=True)
                if isinstance(small, cst.Raise):
                    return _State(state.written, terminated=True)
                if self._writes(small):
                    state = _State(True)
            return state
        if isinstance(statement, cst.If):
            return self._if(statement, state)
        if isinstance(statement, cst.For | cst.While):
            header = statement.iter if isinstance(statement, cst.For) else statement.test
            before = _State(state.written or self._writes(header))
            body = self._block(_suite(statement.body), _State(before.written))
            if statement.orelse is not None:
                self._block(_suite(statement.orelse.body), _State(before.written))
            if self.some and not body.terminated:
                return _State(body.written)
            return before
        if isinstance(statement, cst.With):
            items_write = any(self._writes(item) for item in statement.items)
            return self._block(_suite(statement.body), _State(state.written or items_write))
        if isinstance(statement, cst.Try | cst.TryStar):
            after_body = self._block(_suite(statement.body), _State(state.written))
            outcomes = [after_body]
            for handler in statement.handlers:
                outcomes.append(self._block(_suite(handler.body), _State(state.written)))
            if statement.orelse is not None and not after_body.terminated:
                outcomes[0] = self._block(_suite(statement.orelse.body), after_body)
            if statement.finalbody is not None:
                self._block(_suite(statement.finalbody.body), _State(state.written))
            return _merge(outcomes, state, self.some)
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            return state
        # match statements and anything newer: judge the returns inside with today's state
        for inner in _nested_returns(statement):
            self.found.append(ReturnPath(inner, state.written or self._writes(inner)))
        return _State(state.written or self._writes(statement))

    def _if(self, statement: cst.If, state: _State) -> _State:
        if self._mentions_out(statement.test):
            self._block(_suite(statement.body), _State(True))
            if statement.orelse is not None:
                self._else(statement.orelse, _State(True))
            return _State(True)
        start = _State(state.written or self._writes(statement.test))
        body = self._block(_suite(statement.body), _State(start.written))
        if statement.orelse is None:
            other = start
        else:
            other = self._else(statement.orelse, _State(start.written))
        return _merge([body, other], start, self.some)

    def _else(self, orelse: cst.If | cst.Else, state: _State) -> _State:
        if isinstance(orelse, cst.If):
            return self._if(orelse, state)
        return self._block(_suite(orelse.body), state)


def _merge(outcomes: list[_State], before: _State, some: bool = False) -> _State:
    """The state after branches: written on every live one (``some``: on any)."""
    live = [o for o in outcomes if not o.terminated]
    if not live:
        return _State(True, terminated=True)
    written = (any if some else all)(o.written for o in live)
    return _State(before.written or written)


def _suite(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement]:
    if isinstance(suite, cst.IndentedBlock):
        return suite.body
    assert isinstance(suite, cst.SimpleStatementSuite)
    return [cst.SimpleStatementLine(body=suite.body)]


def _nested_returns(node: cst.CSTNode) -> list[cst.Return]:
    found: list[cst.Return] = []

    class Collect(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

    walk(node, Collect())
    return found
