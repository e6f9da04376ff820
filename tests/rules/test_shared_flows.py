"""The out-flows rules share on one tree (``ModuleFlows``: IVY001, IVY002, IVY003, IVY015).

A flow decided while a recursive helper's own flow was in progress holds "unknown" for that
helper, so it depends on the order the questions come in; each rule keeps its own order
for those. Every other flow is the same whoever asks first, and is made once per tree.
These tests ask the flows of files with recursive and plain helpers in many orders, each
order on a tree already asked in other orders, and compare every answer with a fresh tree
asked in that order alone.
"""

from __future__ import annotations

import ast
import itertools
import random
import textwrap

import pytest

from ivycheck.rules._ast_facts import facts
from ivycheck.rules._ast_out_analysis import ModuleFlows, OutFlow
from ivycheck.rules._ast_source import Lines

RUNTIME = ("ivy", "ivycheck.runtime")

MUTUAL = """\
import numpy as np


def a(x, out=None):
    return b(x, out=out)


def b(x, out=None):
    if x:
        return a(x, out=out)
    return np.tan(x, out=out)


def c(x, out=None):
    return b(x, out=out)


def d(x, out=None):
    return e(x, out=out)


def e(x, out=None):
    return np.sin(x, out=out)
"""
"""``a`` and ``b`` call each other (each one's flow depends on which is asked first),
``c`` reaches them, ``d`` and ``e`` are a plain chain."""

SELF_AND_POSITIONAL = """\
import numpy as np


def walk(x, out=None, depth=0):
    if depth > 1:
        return walk(x, out, depth - 1)
    if depth:
        return through(x, out)
    return np.cos(x, out=out)


def through(x, o):
    return walk(x, out=o)


def top(x, *, out=None):
    kw = {"out": out}
    return through(x, out) + leaf(x, **kw)


def leaf(x, *, out=None):
    return np.exp(x, out=out)
"""
"""``walk`` calls itself, and ``through`` (by position) which calls it back."""


def _described(flow: OutFlow) -> tuple[object, ...]:
    """What a flow says, in terms two parses of one text share (no node ids)."""
    return (
        flow.root,
        flow.aliases,
        tuple((u.kind, u.callee, u.via, u.call.lineno, u.call.col_offset) for u in flow.uses),
        flow.escapes,
        flow.forwards_var_kwargs,
        flow.reads_data,
        len(flow.holders),
        flow.best_kind,
    )


def _questions(tree: ast.Module) -> list[tuple[str, str]]:
    """Every (function, parameter) a file's flows can be asked."""
    return [
        (name, arg.arg)
        for name, function in ModuleFlows(
            tree, Lines(""), facts(tree).import_map, RUNTIME
        ).functions.items()
        for arg in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)
    ]


def _asked(flows: ModuleFlows, order: list[tuple[str, str]]) -> list[tuple[object, ...]]:
    return [_described(flows.analyse(flows.functions[name], root)) for name, root in order]


def _orders(questions: list[tuple[str, str]], count: int) -> list[list[tuple[str, str]]]:
    chosen = random.Random(37)
    return [chosen.sample(questions, len(questions)) for _ in range(count)]


@pytest.mark.parametrize("source", [MUTUAL, SELF_AND_POSITIONAL])
def test_a_shared_tree_answers_as_a_fresh_one_in_every_order(source: str) -> None:
    text = textwrap.dedent(source)
    shared_tree = ast.parse(text)
    questions = _questions(shared_tree)
    orders = _orders(questions, 40)
    fresh_answers = set()
    for order in orders:
        tree = ast.parse(text)
        alone = ModuleFlows(tree, Lines(text), facts(tree).import_map, RUNTIME)
        expected = _asked(alone, order)
        fresh_answers.add(tuple(zip(order, expected, strict=True)))
        flows = ModuleFlows(shared_tree, Lines(text), facts(shared_tree).import_map, RUNTIME)
        assert _asked(flows, order) == expected, order
    # The file's answers do depend on the order (else this would test nothing).
    by_question: dict[tuple[str, str], set[tuple[object, ...]]] = {}
    for answers in fresh_answers:
        for question, answer in answers:
            by_question.setdefault(question, set()).add(answer)
    assert any(len(answers) > 1 for answers in by_question.values())


def test_order_free_flows_are_made_once_per_tree() -> None:
    """``d`` and ``e`` reach no recursion: every rule gets the same flow, made once;
    ``a``, ``b`` and ``c`` are each rule's own."""
    tree = ast.parse(MUTUAL)
    first, second = (
        ModuleFlows(tree, Lines(MUTUAL), facts(tree).import_map, RUNTIME) for _ in range(2)
    )
    for name, (one, other) in itertools.product("abcde", [(first, second)]):
        shared = one.analyse(one.functions[name]) is other.analyse(other.functions[name])
        assert shared == (name in "de"), name
