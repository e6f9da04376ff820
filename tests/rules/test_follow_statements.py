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
from collections.abc import Sequence
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import summarize_file
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


Found = Sequence[tuple[ast.AST, Sequence[ast.AST]]]


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


RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))
EDITS = (
    ("_EDITED = 0\n", ""),  # a statement before the example's
    ("", "\n\ndef _edited():\n    return 0\n"),  # one after them
)


def _examples() -> list[object]:
    return [
        pytest.param(example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in RULES
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ]


def _check(
    example: Example, source: str, tree: ast.Module | None, config: Config = CONFIG
) -> list[Diagnostic]:
    files = {example.path: source, **example.files}
    index = ProjectIndex.build(
        summarize_file(text, path, CONFIG.part_of(path)) for path, text in files.items()
    )
    return check_source(
        source,
        path=example.path,
        config=config,
        rules=RULES,
        index=index,
        relative_path=example.path,
        tree=tree,
    )


@pytest.mark.parametrize("example", _examples())
def test_every_rule_finds_on_a_following_tree_what_it_finds_on_a_fresh_one(
    example: Example,
) -> None:
    """Each example edited before or after its own statements: the check of the tree that
    took the previous version's facts over gives every finding and fix of a fresh parse."""
    for before, added in EDITS:
        first = parse_text(before + example.code + added)
        if first.tree is None:
            continue  # (an example of a syntax error)
        _check(example, first.text, first.tree)  # the facts the next version takes over
        edited = before.replace("0", "1") + example.code + added.replace("0", "1")
        second = parse_text(edited, first)
        assert second.tree is not None
        assert _check(example, edited, second.tree) == _check(example, edited, None)


def test_a_verdict_kept_with_a_statement_follows_the_module_s_imports() -> None:
    """IVY009 keeps its verdict on a function's annotation with the statement, for the
    module's imports it was made with: an edit of an import judges the kept function again."""
    function = "\n\ndef f(x, *, out: Optional[Array] = None):\n    return x\n"
    example = Example("", path="ivy/functional/ivy/example.py")
    config = CONFIG.with_overrides(select=("IVY009",))
    first = parse_text("from ivy import Array\n" + function)
    assert first.tree is not None
    assert _check(example, first.text, first.tree, config) == []
    second = parse_text("from jax import Array\n" + function, first)
    assert second.tree is not None and second.tree.body[1] is first.tree.body[1]
    assert [d.code for d in _check(example, second.text, second.tree, config)] == ["IVY009"]


def test_a_tree_s_facts_go_with_it_without_a_collection() -> None:
    """The import map keeps each function's scope; nothing it holds refers back to the
    tree's facts, so reference counting frees them with the tree (the command pauses the
    collector while it checks: a cycle kept a whole tree until the end of the run)."""
    tree = ast.parse(SOURCE)
    found = facts(tree)
    outer = next(f for f, _ in found.functions if f.name == "outer")
    assert found.import_map.qualify(ast.parse("np.tan", mode="eval").body, (outer,)) == (
        "numpy.tan"
    )
    gone = weakref.ref(found)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del found, outer, tree
        assert gone() is None
    finally:
        if enabled:
            gc.enable()


def test_facts_kept_with_a_statement_are_those_its_last_version_was_asked() -> None:
    """A fact kept under a key holding the module's imports (IVY009's verdict, the
    qualified ``out=`` calls) is made again after an edit of an import, under a new key:
    the old one must not stay with the statement for as long as it lives (each edit of an
    import line added one more to every statement, without bound)."""
    function = "\n\ndef f(x, *, out: Optional[Array] = None):\n    return np.tan(x, out=out)\n"
    example = Example("", path="ivy/functional/ivy/example.py")
    parsed = parse_text("from ivy import Array as A0\n" + function)
    assert parsed.tree is not None
    _check(example, parsed.text, parsed.tree)
    kept = facts(parsed.tree)._statements.kept
    assert kept is not None
    asked = len(kept[id(parsed.tree.body[1])][1])
    for version in range(1, 20):
        parsed = parse_text(f"from ivy import Array as A{version}\n" + function, parsed)
        assert parsed.tree is not None
        _check(example, parsed.text, parsed.tree)
    kept = facts(parsed.tree)._statements.kept
    assert kept is not None
    entry = kept[id(parsed.tree.body[1])]
    assert sum(len(part) for part in entry[1:]) <= 2 * asked  # type: ignore[arg-type]
