"""The out-flow shapes :func:`ivycheck.rules._ast_outflow.followed_outflow` decides beyond
plain ``out=out`` (IVY001, IVY002 and IVY003 decide in ``check()``: their examples and
shape tests pin their findings).

``followed_outflow`` reads ``out`` where libcst's analysis reads it (``out.dtype``,
``ivy.is_float_dtype(out)``, ``return out``), follows it into same-file helpers, and
ignores ``**`` of a local dictionary.
"""

from __future__ import annotations

import ast
import textwrap

from ivycheck.rules._ast_facts import AstImportMap
from ivycheck.rules._ast_outflow import followed_outflow, plain_outflow
from ivycheck.rules._vocabulary import UseKind
from tests.rules.test_ivy001_shapes import FOLLOWED, HELPER


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
