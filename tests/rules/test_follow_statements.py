"""Facts kept per top-level statement from one buffer version's tree to the next.

The language server parses only the statements an edit touched (``lsp/reparse.py``) and
hands the rules' facts of the others over to the new tree
(:func:`~ivycheck.rules._ast_facts.follow_statements`). These tests pin what that must
keep: the walks joined per statement are the whole tree's walk, element for element and
in its order (the rules' findings come out in it); a shared statement's facts are made
once across versions, an edited one's anew; and nothing keeps an earlier version's
statements alive once no tree holds them.
"""

from __future__ import annotations

import ast
import gc
import textwrap
import weakref

from ivycheck.lsp.reparse import parse_text
from ivycheck.rules._ast_facts import TreeFacts, facts, follow_statements

SOURCE = textwrap.dedent(
    """\
    import numpy as np

    x = np.ones(3, out=f(g(1)))


    @deco(h())
    def outer(a, out=None):
        def inner(b=k()):
            class C:
                def method(self):
                    return m(n(), out=self)

            return np.tan(b, out=out)

        return inner(a)(out=out)


    async def later():
        lambda: q(r())
        return await s(t=u())


    for v in w():
        def in_loop():
            return y()
    """
)


Found = list[tuple[ast.AST, tuple[ast.AST, ...]]]


def _same(first: Found, second: Found) -> bool:
    """The same nodes with the same scopes, in the same order."""
    return len(first) == len(second) and all(
        a is b and len(s) == len(z) and all(p is q for p, q in zip(s, z, strict=True))
        for (a, s), (b, z) in zip(first, second, strict=True)
    )


def test_the_statements_walks_joined_are_the_whole_walk() -> None:
    tree = ast.parse(SOURCE)
    whole = TreeFacts(tree)
    follow_statements(tree, None)
    joined = facts(tree)
    assert [ast.unparse(call.func) for call, _ in joined.calls] == [
        *("w", "np.ones", "f", "g", "deco", "h"),  # module level, the last statement first
        *("inner(a)", "inner", "np.tan", "k", "m", "n", "s", "u", "q", "r", "y"),
    ]
    assert [function.name for function, _ in joined.functions] == [
        *("in_loop", "later", "outer", "inner", "method")
    ]
    assert _same(joined.calls, whole.calls)
    assert _same(joined.functions, whole.functions)


def test_a_shared_statement_is_walked_once_and_an_edited_one_again() -> None:
    first = parse_text(SOURCE)
    assert first.tree is not None
    made: list[str] = []

    def name_of(statement: ast.stmt) -> str:
        made.append(ast.unparse(statement).split("\n", 1)[0])
        return type(statement).__name__

    for statement in first.tree.body:
        facts(first.tree).of_statement(statement, "test", name_of)
    assert len(made) == len(first.tree.body)
    edited = parse_text(SOURCE.replace("return y()", "return z()"), first)
    assert edited.tree is not None
    made.clear()
    for statement in edited.tree.body:
        facts(edited.tree).of_statement(statement, "test", name_of)
    assert made == ["for v in w():"]
    assert _same(facts(edited.tree).calls, TreeFacts(edited.tree).calls)


def test_an_earlier_version_s_statements_go_with_it() -> None:
    first = parse_text(SOURCE)
    assert first.tree is not None
    facts(first.tree).calls  # noqa: B018 - kept with each statement
    replaced = weakref.ref(first.tree.body[-1])
    edited = parse_text(SOURCE.replace("return y()", "return z()"), first)
    assert edited.tree is not None
    facts(edited.tree).calls  # noqa: B018
    del first
    gc.collect()
    assert replaced() is None
    assert facts(edited.tree).calls
