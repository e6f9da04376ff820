"""The out-flow shapes IVY001 and IVY003 decide on CPython's tree beyond plain ``out=out``
(IVY002 decides in ``check()``: its examples pin its shapes).

:func:`ivycheck.rules._ast_outflow.followed_outflow` reads ``out`` where libcst's analysis
reads it (``out.dtype``, ``ivy.is_float_dtype(out)``, ``return out``), follows it into
same-file helpers, and ignores ``**`` of a local dictionary; IVY001 walks the returns and
reads its blockers on the ast; IVY003 reads a test in parentheses of its own. Each variant
is checked with fix edits (libcst decides) and without (the rule may decide on CPython's
tree): both must show the same diagnostics. Where the ast check is meant to answer, the
test asserts that it does and with how many findings; where it cannot read the shape
exactly, it asserts ``None``.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from ivycheck.checker.core.rule import Example
from ivycheck.rules._ast_facts import AstImportMap
from ivycheck.rules._ast_outflow import followed_outflow, plain_outflow
from ivycheck.rules._vocabulary import UseKind
from tests.rules.test_find_on_ast import _agree
from tests.rules.test_ivy001_shapes import FOLLOWED, HELPER

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"


DROPS = """
import ivy
import torch


def floor_divide(x1, x2, /, *, out=None):
    if x1.ndim == 0:
        return torch.div(x1, x2)
    if ivy.exists(out):
        if not ivy.is_float_dtype(out):
            return ivy.inplace_update(out, torch.floor(torch.div(x1, x2)).type(out.dtype))
    return torch.floor(torch.div(x1, x2), out=out).type(x1.dtype)


floor_divide.support_native_out = True
"""

VARIANTS_003: dict[str, tuple[str, int | None]] = {
    "out read by a call and its dtype": (DROPS, 1),
    "test in parentheses over lines": (
        DROPS.replace("if x1.ndim == 0:", "if (\n        x1.ndim == 0\n    ):"),
        1,
    ),
    "elif test in parentheses": (
        DROPS.replace(
            "if x1.ndim == 0:", "if x1 is None:\n        raise ValueError\n    elif (x1.size == 0):"
        ),
        1,
    ),
    "test in parentheses with a comment": (
        DROPS.replace("if x1.ndim == 0:", "if (  # empty\n        x1.ndim == 0\n    ):"),
        None,
    ),
    "test in parentheses, not x.ndim": (DROPS.replace("if x1.ndim == 0:", "if (not x1.ndim):"), 1),
    "out subscripted": (DROPS.replace("x1.ndim == 0", "out[0] == 0"), None),
}


@pytest.mark.parametrize("name", sorted(VARIANTS_003))
def test_ivy003_variants_agree(name: str) -> None:
    source, expected = VARIANTS_003[name]
    example = Example(textwrap.dedent(source), path=TORCH)
    _agree("IVY003", example, expected)


def test_plain_outflow_stays_plain() -> None:
    """The widening is opt-in (IVY015 reads only plain flows): ``plain_outflow`` still
    declines a read ``out`` and a helper, ``followed_outflow`` decides them."""
    tree = ast.parse(textwrap.dedent(FOLLOWED["out's dtype read"][0]))
    (function,) = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    imports = AstImportMap.of(tree)
    assert plain_outflow(function, imports, ("ivy",), {"tan"}) is None
    flow = followed_outflow(function, imports, ("ivy",), {"tan": function})
    assert flow is not None and flow.reads_data and not flow.escapes
    tree = ast.parse(textwrap.dedent(HELPER))
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    imports = AstImportMap.of(tree)
    assert plain_outflow(functions["quantile"], imports, ("ivy",), set(functions)) is None
    flow = followed_outflow(functions["quantile"], imports, ("ivy",), functions)
    assert flow is not None and [(u.kind, u.via) for u in flow.uses] == [
        (UseKind.NATIVE, "_compute")
    ]
