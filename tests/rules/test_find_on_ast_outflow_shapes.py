"""The out-flow shapes IVY001-IVY003 decide on CPython's tree beyond plain ``out=out``.

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
from tests.rules.test_find_on_ast import _agree, _answer, _both, _rule, _shown

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"


BASE = """
import ivy
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)
"""

_LAST = "    return np.tan(x, out=out)\n"


def _body(text: str, source: str = BASE) -> str:
    """``BASE`` with ``tan``'s body replaced by ``text`` (indented by the caller)."""
    return source.replace(_LAST, text)


HELPER = """
import numpy as np


def _compute(x, q, out=None):
    if q > 1:
        raise ValueError("q")
    return np.quantile(x, q, out=out).astype(x.dtype)


def quantile(x, q, /, *, out=None):
    return _compute(x, q, out=out)
"""

VARIANTS_001: dict[str, tuple[str, str, int | None, str | None]] = {
    # name: (source, path, findings on the ast or None, a text of the first message)
    "dropping early return": (
        _body("    if x.ndim == 0:\n        return np.tan(x)\n" + _LAST),
        NP,
        1,
        "the return on line 7 never writes `out`",
    ),
    "guarded early return": (
        _body("    if out is None:\n        return np.tan(x)\n" + _LAST),
        NP,
        1,
        "add `tan.support_native_out = True`",
    ),
    "dropping return in a one-line block": (
        _body("    if x.ndim == 0: return np.tan(x)\n" + _LAST),
        NP,
        1,
        "the return on line 6 never writes `out`",
    ),
    "method of the result (numpy rebinds)": (
        _body("    return np.tan(x, out=out).astype(x.dtype)\n"),
        NP,
        1,
        "hands back a method of the native call's result",
    ),
    "method of the result (torch copies)": (
        _body("    return np.tan(x, out=out).to(x.dtype)\n", BASE.replace("numpy", "torch")),
        TORCH,
        1,
        "add `tan.support_native_out = True`",
    ),
    "method of the result in a helper": (HELPER, NP, 1, "`_compute` -> `numpy.quantile`"),
    "public helper": (
        BASE + "\n\ndef itan(x, /, *, out=None):\n    return tan(x, out=out)\n",
        NP,
        2,
        None,
    ),
    "helper by position": (
        BASE.replace("def tan(x, /, *, out=None)", "def _tan(x, o)").replace("out=out", "out=o")
        + "\n\ndef tan(x, /, *, out=None):\n    return _tan(x, out)\n",
        NP,
        1,
        "natively to `_tan` but",
    ),
    "helper taking no out": (
        BASE.replace("def tan(x, /, *, out=None)", "def _tan(x, **kw)").replace("out=out", "**kw")
        + "\n\ndef tan(x, /, *, out=None):\n    return _tan(x, out=out)\n",
        NP,
        0,  # libcst: an unknown use, not a native one
        None,
    ),
    "helper dropping out": (
        BASE.replace("def tan(x, /, *, out=None)", "def _tan(x, out=None)").replace("out=out", "")
        + "\n\ndef tan(x, /, *, out=None):\n    return _tan(x, out=out)\n",
        NP,
        0,
        None,
    ),
    "recursive helper": (
        _body("    if x.ndim > 1:\n        return tan(x[0], out=out)\n" + _LAST),
        NP,
        None,
        None,
    ),
    "out's dtype read": (
        _body(
            "    if ivy.exists(out):\n"
            "        if out.dtype == x.dtype:\n"
            "            return np.tan(x, out=out)\n"
            "        return ivy.inplace_update(out, np.tan(x).astype(out.dtype))\n"
            "    return np.tan(x)\n"
        ),
        NP,
        1,
        "add `tan.support_native_out = True`",
    ),
    "out read by a call": (
        _body(
            "    if not ivy.is_float_dtype(out):\n"
            "        return ivy.inplace_update(out, np.tan(x))\n" + _LAST
        ),
        NP,
        1,
        "add `tan.support_native_out = True`",
    ),
    "out read by a call, not a test": (
        _body("    y = ivy.is_float_dtype(out)\n    if y:\n        return np.tan(x)\n" + _LAST),
        NP,
        1,
        None,
    ),
    "method of out called": (
        _body("    out.fill(0)\n    if x.ndim == 0:\n        return np.tan(x)\n" + _LAST),
        NP,
        1,
        "add `tan.support_native_out = True`",
    ),
    "return out": (_body("    np.tan(x, out=out)\n    return out\n"), NP, 1, None),
    "local dictionary unpacked": (
        _body(
            "    kw = {k: v for k, v in {'a': 1}.items()}\n    return np.tan(x, out=out, **kw)\n"
        ),
        NP,
        1,
        None,
    ),
    "signature kwargs forwarded": (
        BASE.replace("out=None)", "out=None, **kw)").replace("out=out)", "out=out, **kw)"),
        NP,
        None,
        None,
    ),
    "tuple word in another annotation": (
        BASE.replace("out=None)", "s: Optional[Tuple[int]] = None, out=None)"),
        NP,
        1,
        "add `tan.support_native_out = True`",
    ),
    "tuple result": (
        BASE.replace("out=None)", "out=None) -> Tuple[np.ndarray]"),
        NP,
        1,
        "`out` holds several results here",
    ),
    "tuple word in a comment of the signature": (
        BASE.replace("out=None)", "out=None  # a tuple\n)"),
        NP,
        None,
        None,
    ),
    "out subscripted": (_body("    x = x + out[0]\n" + _LAST), NP, None, None),
    "out aliased by an annotated assignment": (
        _body("    o: object = out\n" + _LAST),
        NP,
        None,
        None,
    ),
    "nested def named out": (
        _body("    def g():\n        def out():\n            pass\n\n" + _LAST),
        NP,
        None,
        None,
    ),
    "match capturing out": (
        _body("    match x:\n        case [out]:\n            pass\n" + _LAST),
        NP,
        None,
        None,
    ),
}


@pytest.mark.parametrize("name", sorted(VARIANTS_001))
def test_ivy001_variants_agree(name: str) -> None:
    source, path, expected, text = VARIANTS_001[name]
    rule = _rule("IVY001")
    example = Example(textwrap.dedent(source), path=path)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if expected is None:
        assert answer is None
        return
    assert answer is not None and len(answer) == expected
    found = [d for d in with_edits if d.code == "IVY001"]
    assert len(found) == expected
    if text is not None:
        assert text in sorted(found, key=lambda d: d.line)[0].message


DEAD = """
import ivy
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x)


tan.support_native_out = True
"""

VARIANTS_002: dict[str, tuple[str, str, int | None, str | None]] = {
    "helper dropping out": (
        DEAD.replace("def tan", "def _tan(x, out=None):\n    return x\n\n\ndef tan").replace(
            "return np.tan(x)\n", "return _tan(x, out=out)\n"
        ),
        NP,
        1,
        "the helper it passes `out` to ignores it",
    ),
    "helper rejecting out": (
        DEAD.replace(
            "def tan", "def _tan(x, out=None):\n    return np.transpose(x, out=out)\n\n\ndef tan"
        ).replace("return np.tan(x)\n", "return _tan(x, out=out)\n"),
        NP,
        1,
        "`_tan` does not accept `out`",
    ),
    "helper forwarding": (
        DEAD.replace(
            "def tan", "def _tan(x, out=None):\n    return np.sin(x, out=out)\n\n\ndef tan"
        ).replace("return np.tan(x)\n", "return _tan(x, out=out)\n"),
        NP,
        0,
        None,
    ),
    "out's shape read": (
        DEAD.replace("return np.tan(x)", "return np.tan(x).reshape(out.shape)"),
        NP,
        0,
        None,
    ),
    "out tested only": (
        DEAD.replace("return np.tan(x)", "return np.tan(x) if out is None else x"),
        NP,
        1,
        "it never passes `out` to a native function",
    ),
}


@pytest.mark.parametrize("name", sorted(VARIANTS_002))
def test_ivy002_variants_agree(name: str) -> None:
    source, path, expected, text = VARIANTS_002[name]
    rule = _rule("IVY002")
    example = Example(textwrap.dedent(source), path=path)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    assert answer is not None and len(answer) == expected
    found = [d for d in with_edits if d.code == "IVY002"]
    assert len(found) == expected
    if text is not None:
        assert text in found[0].message


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
    tree = ast.parse(textwrap.dedent(VARIANTS_001["out's dtype read"][0]))
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
