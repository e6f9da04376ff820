"""IVY003 on the shapes its examples do not show: where each finding stands, what it says
and how severe it is, for the layouts CPython's tree and the text place apart (tabs,
CRLF, non-ASCII text, a return over lines or after a ``;``, a body on its header's line, a
test in parentheses with a comment, a backslash continuation) and the out-flows a return
is judged against (aliases, dictionaries, ``match``, ``try``, ``with``, guards naming
``out``). The expectations are the libcst check's, which the one-tree check replaced.
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, Severity
from tests.rules.test_examples import _diagnostics

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"

DROPPED = """
import ivy
import numpy as np


def tan(x, /, *, dtype=None, out=None):
    \"\"\"Tangent.\"\"\"
    if dtype is not None:
        return np.tan(x).astype(dtype)
    return np.tan(x, out=out)


tan.support_native_out = True
"""

_EARLY = "    if dtype is not None:\n        return np.tan(x).astype(dtype)\n"
_LAST = "return np.tan(x, out=out)\n"

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

NEVER = "this return never writes `out`"
EMPTY = "(reached only on empty or 0-d input)"
LOOP = "(after the loop above, when it runs zero times)"
CONVERTED = "hands back `.astype(...)` of the result, a new array"
E, W = Severity.ERROR, Severity.WARNING

Expected = list[tuple[int, int, str, Severity]]
"""Each finding: line, column (1-based, code points), words of its message, severity."""

SHAPES: dict[str, tuple[str, str, Expected]] = {
    "plain": (DROPPED, NP, [(8, 9, NEVER, E)]),
    "torch (the update copies: a warning)": (
        DROPPED.replace("numpy as np", "torch as np"),
        TORCH,
        [(8, 9, NEVER, W)],
    ),
    "async def": (DROPPED.replace("def tan", "async def tan"), NP, [(8, 9, NEVER, E)]),
    "non-ASCII in the return": (
        DROPPED.replace("np.tan(x).astype", 'np.tan("é" and x).astype'),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "non-ASCII before the return": (
        DROPPED.replace(
            "        return np.tan(x).astype", '        y = "é"; return np.tan(x).astype'
        ),
        NP,
        [(8, 18, NEVER, E)],
    ),
    "unicode name": (DROPPED.replace("tan", "tanç"), NP, [(8, 9, "`tanç` has", E)]),
    "tabs": (DROPPED.replace("    ", "\t"), NP, [(8, 3, NEVER, E)]),
    "crlf": (DROPPED.replace("\n", "\r\n"), NP, [(9, 9, NEVER, E)]),
    "return over lines": (
        DROPPED.replace(
            "return np.tan(x).astype(dtype)",
            "return np.tan(\n            x\n        ).astype(dtype)",
        ),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "return in parentheses with a comment": (
        DROPPED.replace(
            "return np.tan(x).astype(dtype)", "return (np.tan(x).astype(dtype)) ;  # c"
        ),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "if on one line": (
        DROPPED.replace(_EARLY, "    if dtype is not None: return np.tan(x)\n"),
        NP,
        [(7, 27, NEVER, E)],
    ),
    "empty input": (
        DROPPED.replace("if dtype is not None", "if x.size == 0"),
        NP,
        [(8, 9, EMPTY, W)],
    ),
    "empty input in an elif": (
        DROPPED.replace(
            "if dtype is not None:",
            "if x is None:\n        raise ValueError\n    elif x.size == 0:",
        ),
        NP,
        [(10, 9, EMPTY, W)],
    ),
    "not x.ndim": (
        DROPPED.replace("if dtype is not None", "if not x.ndim"),
        NP,
        [(8, 9, EMPTY, W)],
    ),
    "empty input on the header's line (not degenerate)": (
        DROPPED.replace(_EARLY, "    if x.size == 0: return np.tan(x)\n"),
        NP,
        [(7, 21, NEVER, E)],
    ),
    "empty input after a continuation (on the header's logical line)": (
        DROPPED.replace(_EARLY, "    if x.size == 0: \\\n        return np.tan(x)\n"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "(not x.ndim): a test in parentheses is no plain negation": (
        DROPPED.replace("if dtype is not None", "if (not x.ndim)"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "a comment in the test's parentheses is read with it": (
        DROPPED.replace("if dtype is not None:", "if (  # x.size == 0\n        dtype\n    ):"),
        NP,
        [(10, 9, EMPTY, W)],
    ),
    "loop then return": (
        DROPPED.replace(_EARLY, "").replace(
            _LAST, "for a in range(x.ndim):\n        x = np.tan(x, out=out)\n    return x\n"
        ),
        NP,
        [(9, 5, LOOP, W)],
    ),
    "converted result": (
        DROPPED.replace(_EARLY, "").replace("out=out)", "out=out).astype(x.dtype)"),
        NP,
        [(7, 5, CONVERTED, E)],
    ),
    "converted result on torch (the update copies: nothing)": (
        DROPPED.replace("numpy as np", "torch as np")
        .replace(_EARLY, "")
        .replace("out=out)", "out=out).to(x.dtype)"),
        TORCH,
        [],
    ),
    "guarded inplace_update": (
        DROPPED.replace(
            "        return np.tan(x).astype(dtype)\n",
            "        ret = np.tan(x).astype(dtype)\n        if ivy.exists(out):\n"
            "            return ivy.inplace_update(out, ret)\n        return ret\n",
        ),
        NP,
        [],
    ),
    "a test naming out as a keyword guards": (
        DROPPED.replace("if dtype is not None", "if f(out=dtype)"),
        NP,
        [],
    ),
    "a test naming out as an attribute guards": (
        DROPPED.replace("if dtype is not None", "if dtype.out"),
        NP,
        [],
    ),
    "try": (
        DROPPED.replace(_EARLY, "").replace(
            _LAST,
            "try:\n        return np.tan(x, out=out)\n    except TypeError:\n        return np.tan(x)\n",
        ),
        NP,
        [(10, 9, NEVER, E)],
    ),
    "with": (
        DROPPED.replace(_EARLY, "    with ctx:\n        return np.tan(x)\n"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "written before the branch": (
        DROPPED.replace(_EARLY, "    y = np.tan(x, out=out)\n" + _EARLY),
        NP,
        [],
    ),
    "raise": (DROPPED.replace("return np.tan(x).astype(dtype)", "raise ValueError(dtype)"), NP, []),
    "falsy attribute (Ivy's wrapper tests its presence)": (
        DROPPED.replace("= True", "= False"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "match": (
        DROPPED.replace(
            _EARLY, "    match dtype:\n        case None:\n            return np.tan(x)\n"
        ),
        NP,
        [(9, 13, NEVER, E)],
    ),
    "alias": (
        DROPPED.replace(_LAST, "o = out\n    return np.tan(x, out=o)\n"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "dictionary": (
        DROPPED.replace(_LAST, 'kw = {"out": out}\n    return np.tan(x, **kw)\n'),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "out's attribute read": (
        DROPPED.replace("astype(dtype)", "astype(out.dtype)"),
        NP,
        [(8, 9, NEVER, E)],
    ),
    "no native use (IVY002's)": (DROPPED.replace(_LAST, "return np.tan(x)\n"), NP, []),
    "out read by a call and its dtype": (DROPS, TORCH, [(7, 9, EMPTY, W)]),
    "test in parentheses over lines": (
        DROPS.replace("if x1.ndim == 0:", "if (\n        x1.ndim == 0\n    ):"),
        TORCH,
        [(9, 9, EMPTY, W)],
    ),
    "elif test in parentheses": (
        DROPS.replace(
            "if x1.ndim == 0:", "if x1 is None:\n        raise ValueError\n    elif (x1.size == 0):"
        ),
        TORCH,
        [(9, 9, EMPTY, W)],
    ),
    "test in parentheses with a comment": (
        DROPS.replace("if x1.ndim == 0:", "if (  # empty\n        x1.ndim == 0\n    ):"),
        TORCH,
        [(9, 9, EMPTY, W)],
    ),
    "out subscripted": (DROPS.replace("x1.ndim == 0", "out[0] == 0"), TORCH, []),
    "the signature's **kwargs may carry out": (
        "import numpy as np\n\n\ndef tan(x, **kwargs):\n    if x.ndim:\n        return x\n"
        "    return np.tan(x, **kwargs)\n\n\ntan.support_native_out = True\n",
        NP,
        [(6, 9, NEVER, E)],
    ),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_findings_stand_and_read_as_expected(name: str) -> None:
    source, path, expected = SHAPES[name]
    rule = all_rules()["IVY003"]
    found = _diagnostics(rule, Example(textwrap.dedent(source), path=path))
    assert [(d.line, d.col, d.severity) for d in found] == [
        (line, column, severity) for line, column, _, severity in expected
    ]
    for diagnostic, (_, _, words, _) in zip(found, expected, strict=True):
        assert words in diagnostic.message
