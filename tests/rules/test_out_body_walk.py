"""The out-flow's one walk of a function's body (``_ast_out_analysis._walk_body``) against
``ast.iter_child_nodes``.

The walk takes each name with its parent as the parent's children are gathered (a name
is never pushed, and is not in the parents map), and leaves constants out. These tests
pin that nothing is lost on the way: every name below the function, with its parent and
whether it is in a nested scope (a function, a lambda or a class below the function, its
signature and decorators included), and the parent of every other node but constants.
"""

from __future__ import annotations

import ast
import textwrap
from collections import Counter
from pathlib import Path

from ivycheck.rules import _ast_out_analysis
from ivycheck.rules._ast_facts import child_nodes
from ivycheck.rules._ast_out_analysis import _walk_body

SOURCE = textwrap.dedent(
    """\
    def flows(x, out=None, **kw):
        y = out
        f(out=out, *out, **kw)
        g(x, y)[out] = out.attr
        lambda q=out: q + out
        [out for _ in range(3) if out]
        class Inner(Base, metaclass=out):
            field = out

        @deco(out)
        def nested(z=out, *, w: out = None):
            global name
            return {"out": out, **kw}, f"{out!r:>{x}}"

        match out:
            case [a, *rest] if a:
                pass
            case {"k": b, **others}:
                pass
        return out if out is not None else (out := x)
    """
)

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _expected(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[Counter[tuple[int, int, bool]], dict[int, ast.AST]]:
    """(name, parent, nested) of every name below ``function``, and the parent of every
    other node below it but constants."""
    names: Counter[tuple[int, int, bool]] = Counter()
    parents: dict[int, ast.AST] = {}

    def visit(node: ast.AST, nested: bool) -> None:
        inside = nested or (node is not function and isinstance(node, _SCOPES))
        for child in child_nodes(node):
            if isinstance(child, ast.Name):
                names[(id(child), id(node), inside)] += 1
            elif not isinstance(child, ast.Constant):
                parents[id(child)] = node
                visit(child, inside)

    for statement in function.body:
        parents[id(statement)] = function
        visit(statement, False)
    return names, parents


def _functions() -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The function above, and every function of the out-flow's own module."""
    module = ast.parse(Path(_ast_out_analysis.__file__).read_text(encoding="utf-8"))
    return [
        node
        for tree in (ast.parse(SOURCE), module)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_the_body_walk_keeps_every_name_and_parent() -> None:
    functions = _functions()
    assert len(functions) > 40
    for function in functions:
        names, parents = _expected(function)
        body = _walk_body(function)
        assert Counter((id(n), id(p), nested) for n, p, nested in body.names) == names
        assert body.parents == parents
