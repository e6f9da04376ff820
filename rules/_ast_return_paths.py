"""Whether every ``return`` of a function comes after (or with) a write of ``out``, on
CPython's tree.

IVY003's question, which IVY001 asks too before it offers the attribute: a function with
``support_native_out`` is handed the caller's native buffer and trusted to fill it, so each
path to a ``return`` must write ``out`` on the way. :class:`ReturnWalk` walks a function's
statements in order, tracking (written, terminated), and hands each ``return`` to a hook
with whether every path to it (or, with ``some``, at least one) wrote ``out``; what writes
``out``, which tests guard it and what a ``match`` does are the hooks
(:func:`ivycheck.rules._ast_out_analysis.return_paths` fills them from the out-flow).
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import NamedTuple

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
"""The nodes opening a scope of their own: what they hold is not the function's."""


class AstReturnPath(NamedTuple):
    """A ``return`` and whether every path to it writes ``out`` (with ``some``: at least one).
    A named tuple: one is made per return of every function with ``out`` IVY001 and IVY003
    look at (thousands in a backend file), where a frozen dataclass's construction cost as
    much as judging the return."""

    node: ast.Return
    covered: bool


class ReturnWalk(ABC):
    """(written, terminated) through a function's statements, each ``return`` handed to
    :meth:`judge` with whether every path to it writes ``out``.

    Guard-aware: a branch whose test names ``out`` (``if ivy.exists(out):``, ``if out is
    None:``) and everything after it count as written, which covers Ivy's documented
    ``if ivy.exists(out): return ivy.inplace_update(out, ret)`` / ``return ret`` shape. A
    ``match`` is taken as one simple statement (its cases are handed to :meth:`match`)."""

    some = False
    """Written when *some* path writes ``out`` (branches merged with "any", a loop's body
    taken as run), so that a message says "never writes" only where no path does."""

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


def _merge(
    outcomes: list[tuple[bool, bool]], before: bool, some: bool = False
) -> tuple[bool, bool]:
    live = [written for written, terminated in outcomes if not terminated]
    if not live:
        return True, True
    return before or (any if some else all)(live), False
