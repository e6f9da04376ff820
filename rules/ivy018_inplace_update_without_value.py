"""IVY018: ``inplace_update`` called without the value to write."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from ivycheck.checker.rule_api import AstFinding, Example, FileUnderCheck, Rule
from ivycheck.rules._ast_calls import runtime_inplace_updates
from ivycheck.rules._ast_source import Lines, node_span
from ivycheck.rules._names import is_runtime_inplace_update

NP = "ivy/functional/backends/numpy/example.py"


class InplaceUpdateWithoutValue(Rule):
    """``inplace_update(x, val)`` needs the value to write.

    ``inplace_update`` is how a function writes its result into ``out`` (or any array) in
    place: ``ivy.inplace_update(out, ret)``. Called with the target alone
    (``ivy.inplace_update(out)``), it raises ``TypeError`` at run time, but only on the path
    that reaches it, which is typically the rarely tested ``out`` path; a test suite that
    never passes ``out`` never notices, and the user who does gets a crash instead of a
    result.

    The rule looks at calls of the runtime's ``inplace_update`` (config ``runtime_modules``,
    default ``ivy`` and ``ivycheck.runtime``, or a bare ``inplace_update``), with fewer than
    two positional arguments and no ``val=`` keyword. Methods (``x.inplace_update(v)``) and
    calls that pass ``*args``/``**kwargs`` are not judged. There is no automatic fix: only
    the author knows which value was meant.
    """

    CODE = "IVY018"
    LOCAL = True
    NAME = "inplace-update-without-value"
    MESSAGE = (
        "`inplace_update` is called without the value to write; pass it: `inplace_update(out, ret)`"
    )
    TRIGGERS = ("inplace_update",)
    VALID = (
        Example(
            """
            def f(x, *, out=None):
                ret = x + 1
                return ivy.inplace_update(out, ret)
            """,
            path=NP,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x, val=y)
            """,
        ),
        Example(
            """
            from ivy import inplace_update
            inplace_update(x=out, val=ret)
            """,
        ),
        Example(
            """
            def f(self, value):
                return self.inplace_update(value)
            """,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(*pair)
            """,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(out, **kwargs)
            """,
        ),
        Example(
            """
            from mylib import inplace_update
            inplace_update(out)
            """,
        ),
        Example(
            """
            from ivycheck.runtime import inplace_update
            inplace_update(out, ret, keep_input_dtype=True)
            """,
        ),
    )
    INVALID = (
        Example(
            """
            import ivy


            def f(x, *, out=None):
                ret = x + 1
                return ivy.inplace_update(out)
            """,
            path=NP,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x)
            """,
        ),
        Example(
            """
            inplace_update(out)
            """,
        ),
        Example(
            """
            from ivy import inplace_update
            inplace_update(x=out)
            """,
        ),
        Example(
            """
            import ivycheck.runtime as rt
            rt.inplace_update(out, keep_input_dtype=True)
            """,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(out, ensure_in_backend=False)
            """,
            path=NP,
        ),
        Example(
            """
            import ivy as iv
            y = iv.inplace_update()
            """,
        ),
    )

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """The check below on CPython's tree, exactly: a call of the runtime's
        ``inplace_update`` without the value to write."""
        return next(_ast_without_value(tree, file), None) is not None

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below on CPython's tree: the finding spans the call, which CPython's
        ``Call`` spans as libcst does in every shape (a callee in parentheses, arguments
        over several lines), in code points."""
        found = list(_ast_without_value(tree, file))
        if not found:
            return []
        lines = Lines(file.source)
        findings: list[AstFinding] = []
        for call in found:
            span = node_span(lines, call)
            if span is None:
                return None  # (a parsed tree always has one)
            findings.append(AstFinding(*span, cls.MESSAGE))
        return findings

    def visit_Call(self, node: cst.Call) -> None:
        if any(arg.star for arg in node.args):
            return
        if not is_runtime_inplace_update(node, self.context):
            return
        positional = [arg for arg in node.args if arg.keyword is None]
        keywords = {arg.keyword.value for arg in node.args if arg.keyword is not None}
        if len(positional) + ("x" in keywords) + ("val" in keywords) >= 2:
            return
        if len(positional) >= 2 or "val" in keywords:
            return
        self.report(node)


def _ast_without_value(tree: ast.Module, file: FileUnderCheck) -> Iterator[ast.Call]:
    """The calls ``InplaceUpdateWithoutValue.visit_Call`` reports, on CPython's tree: the
    runtime's ``inplace_update`` (resolved through the imports of the call's scope, as
    libcst's check resolves it) with no ``*``/``**`` argument, fewer than two positional
    arguments counting ``x=``, and no ``val=``."""
    for call in runtime_inplace_updates(tree, file):
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        keywords = {k.arg for k in call.keywords}
        if None in keywords:
            continue  # **kwargs
        if len(call.args) + ("x" in keywords) < 2 and "val" not in keywords:
            yield call
