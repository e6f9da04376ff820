"""IVY003's ``find_on_ast``: the shapes it answers, and those it leaves to libcst (IVY002
decides in ``check()``: its examples and ``test_dead_native_out.py`` pin its shapes).

Each variant is checked with fix edits (libcst decides) and without (the rule may decide on
CPython's tree); both must show the same diagnostics. Where the ast check is meant to answer,
the test also asserts that it does and with how many findings (a rule answering ``None``
everywhere would pass the comparisons); where it cannot read the shape exactly, it asserts
``None``.
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.core.rule import Example
from ivycheck.rules import ivy002_dead_native_out as ivy002
from tests.rules.test_find_on_ast import _agree, _answer, _both, _rule, _shown

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"


# IVY003 --------------------------------------------------------------------------------

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

VARIANTS_003: dict[str, tuple[str, str, int | None]] = {
    "plain": (DROPPED, NP, 1),
    "torch": (DROPPED.replace("numpy as np", "torch as np"), TORCH, 1),
    "async def": (DROPPED.replace("def tan", "async def tan"), NP, 1),
    "non-ascii in the return": (
        DROPPED.replace("np.tan(x).astype", 'np.tan("é" and x).astype'),
        NP,
        1,
    ),
    "non-ascii before the return": (
        DROPPED.replace(
            "        return np.tan(x).astype", '        y = "é"; return np.tan(x).astype'
        ),
        NP,
        1,
    ),
    "unicode name": (DROPPED.replace("tan", "tanç"), NP, 1),
    "tabs": (DROPPED.replace("    ", "\t"), NP, 1),
    "crlf": (DROPPED.replace("\n", "\r\n"), NP, 1),
    "return over lines": (
        DROPPED.replace(
            "return np.tan(x).astype(dtype)",
            "return np.tan(\n            x\n        ).astype(dtype)",
        ),
        NP,
        1,
    ),
    "return in parentheses with a comment": (
        DROPPED.replace(
            "return np.tan(x).astype(dtype)", "return (np.tan(x).astype(dtype)) ;  # c"
        ),
        NP,
        1,
    ),
    "if on one line": (
        DROPPED.replace(_EARLY, "    if dtype is not None: return np.tan(x)\n"),
        NP,
        1,
    ),
    "empty input": (DROPPED.replace("if dtype is not None", "if x.size == 0"), NP, 1),
    "empty input in an elif": (
        DROPPED.replace(
            "if dtype is not None:",
            "if x is None:\n        raise ValueError\n    elif x.size == 0:",
        ),
        NP,
        1,
    ),
    "not x.ndim": (DROPPED.replace("if dtype is not None", "if not x.ndim"), NP, 1),
    "empty input on one line (not degenerate)": (
        DROPPED.replace(_EARLY, "    if x.size == 0: return np.tan(x)\n"),
        NP,
        1,
    ),
    "empty input in parentheses": (
        DROPPED.replace("if dtype is not None", "if (not x.ndim)"),
        NP,
        1,  # libcst's code of the test starts with "(": not the `not x.ndim` shape
    ),
    "loop then return": (
        DROPPED.replace(_EARLY, "").replace(
            _LAST, "for a in range(x.ndim):\n        x = np.tan(x, out=out)\n    return x\n"
        ),
        NP,
        1,
    ),
    "converted result": (
        DROPPED.replace(_EARLY, "").replace("out=out)", "out=out).astype(x.dtype)"),
        NP,
        1,
    ),
    "converted result on torch (copies)": (
        DROPPED.replace("numpy as np", "torch as np")
        .replace(_EARLY, "")
        .replace("out=out)", "out=out).to(x.dtype)"),
        TORCH,
        0,
    ),
    "guarded inplace_update": (
        DROPPED.replace(
            "        return np.tan(x).astype(dtype)\n",
            "        ret = np.tan(x).astype(dtype)\n        if ivy.exists(out):\n"
            "            return ivy.inplace_update(out, ret)\n        return ret\n",
        ),
        NP,
        0,
    ),
    "test names out as a keyword": (
        DROPPED.replace("if dtype is not None", "if f(out=dtype)"),
        NP,
        0,
    ),
    "test names out as an attribute": (
        DROPPED.replace("if dtype is not None", "if dtype.out"),
        NP,
        0,
    ),
    "try": (
        DROPPED.replace(_EARLY, "").replace(
            _LAST,
            "try:\n        return np.tan(x, out=out)\n    except TypeError:\n        return np.tan(x)\n",
        ),
        NP,
        1,
    ),
    "with": (DROPPED.replace(_EARLY, "    with ctx:\n        return np.tan(x)\n"), NP, 1),
    "written before the branch": (
        DROPPED.replace(_EARLY, "    y = np.tan(x, out=out)\n" + _EARLY),
        NP,
        0,
    ),
    "raise": (DROPPED.replace("return np.tan(x).astype(dtype)", "raise ValueError(dtype)"), NP, 0),
    "falsy attribute": (DROPPED.replace("= True", "= False"), NP, 1),
    "match": (
        DROPPED.replace(
            _EARLY, "    match dtype:\n        case None:\n            return np.tan(x)\n"
        ),
        NP,
        None,
    ),
    "alias": (DROPPED.replace(_LAST, "o = out\n    return np.tan(x, out=o)\n"), NP, None),
    "dict": (DROPPED.replace(_LAST, 'kw = {"out": out}\n    return np.tan(x, **kw)\n'), NP, None),
    "out's attribute read": (DROPPED.replace("astype(dtype)", "astype(out.dtype)"), NP, 1),
    "no native use (IVY002's)": (DROPPED.replace(_LAST, "return np.tan(x)\n"), NP, 0),
}


@pytest.mark.parametrize("name", sorted(VARIANTS_003))
def test_ivy003_variants_agree(name: str) -> None:
    source, path, expected = VARIANTS_003[name]
    example = Example(textwrap.dedent(source), path=path)
    _agree("IVY003", example, expected)


def test_ivy003_degenerate_words_and_severity() -> None:
    """The degenerate shapes are named and warned about, as libcst's check does."""
    rule = _rule("IVY003")
    for name, words in (
        ("empty input", "(reached only on empty or 0-d input)"),
        ("empty input in an elif", "(reached only on empty or 0-d input)"),
        ("not x.ndim", "(reached only on empty or 0-d input)"),
        ("loop then return", "(after the loop above, when it runs zero times)"),
        ("empty input on one line (not degenerate)", "this return never writes"),
    ):
        source, path, _ = VARIANTS_003[name]
        answer = _answer(rule, Example(textwrap.dedent(source), path=path))
        assert answer is not None and words in answer[0].message, name


def test_ivy003_never_handed() -> None:
    """A wrapper that never hands this backend the buffer: no return matters."""
    rule = _rule("IVY003")
    example = Example(
        textwrap.dedent(VARIANTS_003["torch"][0]),
        path=TORCH,
        files={
            ivy002.WRAPPER: ivy002._WRAPPER_GATED,
            "ivy/functional/backends/torch/gradients.py": ivy002._ALWAYS_TRAINABLE,
        },
    )
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    assert _answer(rule, example) == []
