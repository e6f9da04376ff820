"""The calls and functions walk of a tree (``TreeFacts.calls`` / ``.functions``) against
``ast.walk``.

The walk prunes what it judges unable to hold a call or a definition: names and
constants, a signature's parameters (their annotations are walked), an attribute, a
keyword or a starred holding a name or a constant. These tests pin that the pruning
loses nothing: every call and every function ``ast.walk`` meets, each with the functions
enclosing it (a function's decorators, defaults and annotations count as inside it), on
sources that put calls and definitions in every part of a signature and of a call.
"""

from __future__ import annotations

import ast
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from ivycheck.rules import _ast_facts, _ast_out_analysis
from ivycheck.rules._ast_facts import TreeFacts

SIGNATURES = textwrap.dedent(
    """\
    import numpy as np

    def positional(x=a(), /, y: b() = c(), *rest: d(), k: e() = f(), z=None, **kw: g()):
        return x

    def holds_lambdas(x=lambda q=h(): i(q), *, y: (lambda: j())() = (w := k())):
        return x

    def holds_definitions(x=[lambda: l() for _ in m()]):
        def inner(y=n(), *, z=lambda: o()):
            return y
        return inner

    lam = lambda x=p(), *a, k=q(), **kw: r(x, *a, **kw)

    @s(t())
    @np.attr.u(v=w())
    async def decorated(x: np.ndarray = np.zeros(3), *, out: np.ndarray | None = None) -> x():
        return y(x, out=out)
    """
)
"""Calls in defaults (positional and keyword-only), annotations (of every parameter
kind, the return's), lambdas and a walrus there, and decorators."""

CALL_PARTS = textwrap.dedent(
    """\
    def parts(x, out=None):
        a.b(c).d.e(f)
        g(*h(), **i(), k=j(), m=n.o(p()), q=x, r=1)
        s[t()].u(*v, w=x.y, z=(yield aa()))
        bb(cc=dd(ee=ff(gg=hh())), *[ii() for _ in jj()])
        return kk.ll(mm, out=out)[nn()].oo

    class Klass(base(), metaclass=meta(), flag=True):
        attribute: np.ndarray = factory()

        def method(self, x=default()):
            return self.other(x, out=self.buffer).call()
    """
)
"""Calls below attributes, keywords and starred arguments, beside ones holding a name or a
constant; a class's bases, keywords and body."""


def _by_walk(tree: ast.Module) -> tuple[Counter[object], Counter[object]]:
    """Every call and function with the functions enclosing it, by ``ast.walk``'s rule:
    a function's own fields (decorators, signature, return annotation, body) are inside it."""
    calls: Counter[object] = Counter()
    functions: Counter[object] = Counter()

    def visit(node: ast.AST, scope: tuple[int, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                calls[(id(child), scope)] += 1
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                functions[(id(child), scope)] += 1
                visit(child, (*scope, id(child)))
            else:
                visit(child, scope)

    visit(tree, ())
    return calls, functions


def _found(pairs: Sequence[tuple[ast.AST, Sequence[ast.AST]]]) -> Counter[object]:
    return Counter((id(node), tuple(map(id, scope))) for node, scope in pairs)


def _sources() -> list[tuple[str, str]]:
    """The two sources above, and the modules the walk serves most (their own code)."""
    modules = [Path(_ast_facts.__file__), Path(_ast_out_analysis.__file__)]
    return [
        ("signatures", SIGNATURES),
        ("call parts", CALL_PARTS),
        *((path.name, path.read_text(encoding="utf-8")) for path in modules),
    ]


@pytest.mark.parametrize(("name", "source"), _sources(), ids=[n for n, _ in _sources()])
def test_the_calls_walk_meets_every_call_and_function_ast_walk_meets(
    name: str, source: str
) -> None:
    tree = ast.parse(source)
    calls, functions = _by_walk(tree)
    found = TreeFacts(tree)
    assert _found(found.calls) == calls
    assert _found(found.functions) == functions


@pytest.mark.parametrize(("name", "source"), _sources(), ids=[n for n, _ in _sources()])
def test_both_walks_list_the_functions_in_one_order(name: str, source: str) -> None:
    """The functions walk (statements only) and the calls walk (every node) list the same
    functions, with the same scopes, in the same order: rules read either."""
    tree = ast.parse(source)
    statements_only = TreeFacts(tree).functions
    every_node = TreeFacts(tree)
    assert every_node.calls  # (the calls walk made the functions list)
    assert [(f, s) for f, s in every_node.functions] == [(f, s) for f, s in statements_only]
