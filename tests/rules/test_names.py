"""The rules' import-aware resolver (on CPython's tree) agrees with libcst's
QualifiedNameProvider, the reference, on real code."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, QualifiedNameProvider, QualifiedNameSource

from ivycheck.rules._ast_facts import AstImportMap
from tests.helpers import REPO

ALIASES = """\
import numpy as np
import numpy
import jax.numpy as jnp
import torch.nn.functional
from torch import tan as ttan
from tensorflow import math as tfm
from numpy.linalg import norm


def f(x):
    np.tan(x)
    numpy.tan(x)
    jnp.sin(x)
    torch.nn.functional.relu(x)
    ttan(x)
    tfm.cos(x)
    norm(x)
    local(x)
"""


def _resolver_names(module: cst.Module) -> dict[str, str | None]:
    """What the rules' resolver (on CPython's tree) names each call's function, by text."""
    imports = AstImportMap.of(tree := ast.parse(module.code))
    found: dict[str, str | None] = {}

    def visit(node: ast.AST, scope: tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...]) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scope = (*scope, node)
        if isinstance(node, ast.Call):
            found[ast.unparse(node.func)] = imports.qualify(node.func, scope)
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, ())
    return found


def _libcst_names(module: cst.Module) -> dict[str, frozenset[str]]:
    """Per call's function text, every import libcst says it may name (several where
    imports are alternatives: ``try: from _thread ... except: from _dummy_thread ...``)."""
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    found: dict[str, frozenset[str]] = {}

    class Calls(cst.CSTVisitor):
        METADATA_DEPENDENCIES = (QualifiedNameProvider,)

        def visit_Call(self, node: cst.Call) -> None:
            names = self.get_metadata(QualifiedNameProvider, node.func, set())
            imported = {q.name for q in names if q.source is QualifiedNameSource.IMPORT}
            found[module.code_for_node(node.func)] = frozenset(imported)

    wrapper.visit(Calls())
    return found


def test_aliases_resolve_to_the_same_function() -> None:
    names = _resolver_names(cst.parse_module(ALIASES))
    assert names == {
        "np.tan": "numpy.tan",
        "numpy.tan": "numpy.tan",
        "jnp.sin": "jax.numpy.sin",
        "torch.nn.functional.relu": "torch.nn.functional.relu",
        "ttan": "torch.tan",
        "tfm.cos": "tensorflow.math.cos",
        "norm": "numpy.linalg.norm",
        "local": None,
    }


MATCH = """\
import numpy as np
import torch

match command:
    case [first, *rest]:
        np.tan(rest)
    case {"k": value, **others}:
        torch.cos(value)
    case other:
        np.sin(other)
"""


def test_match_statements_bind_names() -> None:
    """``match`` has cases, not a body (the resolver used to raise on any module-level
    ``match``: torch/_functorch/_aot_autograd/subclass_utils.py in the slow sweep)."""
    module = cst.parse_module(MATCH)
    theirs = _libcst_names(module)
    assert {call: {name} if name else set() for call, name in _resolver_names(module).items()} == {
        call: set(names) for call, names in theirs.items()
    }


def _real_files() -> list[Path]:
    files = sorted((REPO / "runtime").rglob("*.py")) + sorted((REPO / "examples").rglob("*.py"))
    for package, limit in (("numpy", 40), ("torch", 40)):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            files += sorted(Path(spec.origin).parent.rglob("*.py"))[:limit]
    return files


@pytest.mark.parametrize("path", _real_files(), ids=lambda p: p.name)
def test_agrees_with_qualified_name_provider(path: Path) -> None:
    try:
        module = cst.parse_module(path.read_bytes())
    except cst.ParserSyntaxError:
        pytest.skip(f"{path} is not valid Python (deliberately, e.g. examples/ IVY000)")
    ours = _resolver_names(module)
    theirs = _libcst_names(module)
    # Only plain name chains: for `np.arange(n).reshape` libcst answers
    # "numpy.arange.reshape", a method of the result that no import names.
    disagreements = {
        call: (ours[call], theirs.get(call))
        for call in ours
        if "(" not in call
        and "[" not in call
        and (ours[call] not in theirs.get(call, ()) if ours[call] else theirs.get(call))
    }
    assert disagreements == {}
