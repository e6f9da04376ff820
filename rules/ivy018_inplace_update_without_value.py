"""IVY018: ``inplace_update`` called without the value to write."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, Rule
from ivycheck.rules._ast_calls import runtime_inplace_updates
from ivycheck.rules._ast_source import Lines, node_span

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
        Example(
            """
            import ivy
            ivy.inplace_update(
                out,
                ret,
            )
            """,
        ),
        Example(
            """
            from ivy import inplace_update


            def f(out):
                from mylib import inplace_update
                return inplace_update(out)
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
            line=6,
            column=12,
            message="`inplace_update` is called without the value to write",
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(x)
            """,
            line=2,
            column=1,
        ),
        Example(
            """
            inplace_update(out)
            """,
            line=1,
            column=1,
        ),
        Example(
            """
            from ivy import inplace_update
            inplace_update(x=out)
            """,
            line=2,
            column=1,
        ),
        Example(
            """
            import ivycheck.runtime as rt
            rt.inplace_update(out, keep_input_dtype=True)
            """,
            line=2,
            column=1,
        ),
        Example(
            """
            import ivy
            ivy.inplace_update(out, ensure_in_backend=False)
            """,
            path=NP,
            line=2,
            column=1,
        ),
        Example(
            """
            import ivy as iv
            y = iv.inplace_update()
            """,
            line=2,
            column=5,
        ),
        Example(
            """
            import ivy
            s = "é€"; ivy.inplace_update(out)
            """,
            line=2,
            column=11,
        ),
        Example(
            """
            import ivy
            (ivy.inplace_update)(out)
            """,
            line=2,
            column=1,
        ),
        Example(
            """
            import ivy
            y = (
                ivy.inplace_update(
                    out,  # é
                )
            )
            """,
            line=3,
            column=5,
        ),
        Example(
            """
            import ivy


            async def f(x, *, out=None):
            \treturn ivy.inplace_update(out)
            """,
            path=NP,
            line=5,
            column=9,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """The finding spans the call (a callee in parentheses and arguments over several
        lines included: CPython's ``Call`` spans them), in code points."""
        lines: Lines | None = None
        for call in _without_value(tree, file):
            lines = lines or Lines(file.source)
            span = node_span(lines, call)
            if span is not None:  # (a parsed tree's call always has an end)
                yield Finding(*span, cls.MESSAGE)


def _without_value(tree: ast.Module, file: FileUnderCheck) -> Iterator[ast.Call]:
    """The calls reported: the runtime's ``inplace_update`` (resolved through the imports of
    the call's scope, so a local ``from mylib import inplace_update`` shadows Ivy's) with
    no ``*``/``**`` argument (what it unpacks is unknown), fewer than two positional
    arguments counting ``x=``, and no ``val=``."""
    for call in runtime_inplace_updates(tree, file):
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        keywords = {k.arg for k in call.keywords}
        if None in keywords:
            continue  # **kwargs
        if len(call.args) + ("x" in keywords) < 2 and "val" not in keywords:
            yield call
