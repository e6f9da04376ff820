"""The summary's one walk of a function (``summary._summarize_function``) against
``ast.walk``.

The walk takes the children of the node types it meets most (calls, attributes,
keywords, subscripts, returns, a signature and its parameters) straight, and every other
node's by its fields, leaving out contexts and operators. These tests pin what that must
keep: what the summary reads from the nodes comes out as from ``ast.walk``'s, in its
breadth-first order (``backend_calls`` is a list).
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

from ivycheck.checker.project import summary
from ivycheck.checker.project.out_effects import whole_array
from ivycheck.checker.project.summary import (
    _DATA,
    _WRITERS,
    _backend_call_name,
    _summarize_function,
)

SOURCE = textwrap.dedent(
    """\
    def everywhere(x, /, y: ann(out) = current_backend().a(), *rest: r(), k=lambda: out, **kw):
        x.data = ivy.current_backend(x).tan(x).reshape(y)
        y[...] = np.asarray(x).T.copy()
        f(g(current_backend().a()), k=current_backend().b())
        z = {"k": current_backend(x).abs(x).sum(), **kw}[x.shape(out).mean()]
        w = [v.f().g() for v in z(out=out.copy_(x)) if current_backend().f(v)]
        return current_backend().stack(x), (yield h(current_backend(y).i(*out, j=k().l())))

    def nothing(x, out=None):
        out = x
        def inner(out):
            return out.fill(0)
        return inner
    """
)


def _by_ast_walk(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[bool, list[str], bool]:
    """(uses_out, backend_calls, writes) read from ``ast.walk``'s nodes, in its order."""
    uses_out, writes = False, False
    calls: list[str] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == "out" and isinstance(node.ctx, ast.Load):
            uses_out = True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            writes = writes or node.func.attr in _WRITERS
            if isinstance(node.func.value, ast.Call):
                called = _backend_call_name(node)
                if called is not None:
                    calls.append(called)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            writes = writes or node.attr in _DATA
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            writes = writes or whole_array(node.slice)
    return uses_out, calls, writes


def test_the_summary_walk_reads_what_ast_walk_meets_in_its_order() -> None:
    trees = [ast.parse(SOURCE), ast.parse(Path(summary.__file__).read_text(encoding="utf-8"))]
    functions = [
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    assert len(functions) > 50
    seen_calls = seen_writes = seen_out = False
    for function in functions:
        found, writes = _summarize_function(function)
        uses_out, calls, expected_writes = _by_ast_walk(function)
        assert (found.uses_out, found.backend_calls, writes) == (uses_out, calls, expected_writes)
        seen_calls, seen_writes = seen_calls or bool(calls), seen_writes or writes
        seen_out = seen_out or uses_out
    assert seen_calls and seen_writes and seen_out  # (the sources exercise every fact)
