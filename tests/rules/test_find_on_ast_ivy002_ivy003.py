"""IVY002's and IVY003's ``find_on_ast``: the shapes they answer, and those they leave to libcst.

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


# IVY002 --------------------------------------------------------------------------------

DEAD = """
import ivy
import numpy as np


def tan(x, /, *, out=None):
    \"\"\"Tangent.\"\"\"
    if out is not None and x.ndim:
        x = np.asarray(x)
    return np.tan(x)


def sin(x, /, *, out=None):
    return np.sin(x, out=out)


tan.support_native_out = True
"""

_LOOP = "for fn in (sin, tan):\n    fn.support_native_out = True\n"
_SET = "tan.support_native_out = True\n"

VARIANTS_002: dict[str, tuple[str, str, int | None]] = {
    # name: (source, path, findings on the ast or None)
    "plain": (DEAD, NP, 1),
    "torch": (DEAD.replace("numpy as np", "torch as np"), TORCH, 1),
    "jax": (DEAD.replace("numpy as np", "jax.numpy as np"), JAX, 1),
    "async def": (DEAD.replace("def tan", "async def tan"), NP, 1),
    "non-ascii before the site": (DEAD.replace(_SET, 'y = "é"; ' + _SET), NP, 1),
    "unicode name": (DEAD.replace("tan", "tanç"), NP, 1),
    "tabs": (DEAD.replace("    ", "\t"), NP, 1),
    "crlf": (DEAD.replace("\n", "\r\n"), NP, 1),
    "no trailing newline": (DEAD.rstrip("\n"), NP, 1),
    "semicolons": (DEAD.replace(_SET, "y = 1; tan.support_native_out = True ; z = 2\n"), NP, 1),
    "two targets (no fix)": (
        DEAD.replace(_SET, "tan.support_native_out = sin.other = True\n"),
        NP,
        1,
    ),
    "setattr": (DEAD.replace(_SET, 'setattr(tan, "support_native_out", True)\n'), NP, 1),
    "setattr concatenated": (
        DEAD.replace(_SET, 'setattr(tan, "support_" "native_out", True)\n'),
        NP,
        None,
    ),
    "setattr escaped": (
        DEAD.replace(_SET, 'setattr(tan, "support_native_ou\\x74", True)\n'),
        NP,
        None,
    ),
    "loop": (DEAD.replace(_SET, _LOOP), NP, 1),
    "loop of one (removes the loop)": (
        DEAD.replace(_SET, _LOOP.replace("sin, tan", "tan,")),
        NP,
        1,
    ),
    "loop over lines": (
        DEAD.replace(_SET, _LOOP.replace("sin, tan", "\n    sin,\n    tan,\n")),
        NP,
        1,
    ),
    "loop with a comment before an element": (
        DEAD.replace(_SET, _LOOP.replace("sin, tan", "  # functions\n    sin,\n    tan,\n")),
        NP,
        None,
    ),
    "loop element in parentheses": (
        DEAD.replace(_SET, _LOOP.replace("sin, tan", "sin, (tan)")),
        NP,
        None,
    ),
    "loop over a set (no fix)": (
        DEAD.replace(_SET, _LOOP.replace("(sin, tan)", "{sin, tan}")),
        NP,
        1,
    ),
    "loop doing more (no fix)": (DEAD.replace(_SET, _LOOP + "    fn.other = 1\n"), NP, 1),
    "loop doing more on one line": (
        DEAD.replace(_SET, _LOOP.replace("True\n", "True; fn.other = 1\n")),
        NP,
        1,
    ),
    "loop on one line (no site)": (
        DEAD.replace(_SET, "for fn in (sin, tan): fn.support_native_out = True\n"),
        NP,
        0,
    ),
    "in an if block": (DEAD.replace(_SET, "if True:\n    " + _SET), NP, 1),
    "in an else block": (DEAD.replace(_SET, "if False:\n    pass\nelse:\n    " + _SET), NP, 1),
    "in an if on one line (no site)": (DEAD.replace(_SET, "if True: " + _SET), NP, 0),
    "in a try block": (
        DEAD.replace(_SET, "try:\n    " + _SET + "except ImportError:\n    pass\n"),
        NP,
        1,
    ),
    "in a with block (no site)": (DEAD.replace(_SET, "with ctx:\n    " + _SET), NP, 0),
    "falsy": (DEAD.replace("= True", "= False"), NP, 0),
    "zero": (DEAD.replace("= True", "= 0x0"), NP, 0),
    "zero spelled 00 (not falsy for libcst)": (DEAD.replace("= True", "= 00"), NP, 1),
    "only inplace_update": (
        DEAD.replace("return np.tan(x)\n", "return ivy.inplace_update(out, np.tan(x))\n", 1),
        NP,
        1,
    ),
    "inplace_update after a guard": (
        DEAD.replace(
            "return np.tan(x)\n",
            "ret = np.tan(x)\n    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n"
            "    return ret\n",
            1,
        ),
        NP,
        1,
    ),
    "out=None given": (DEAD.replace("np.tan(x)\n", "np.tan(x, out=None)\n", 1), NP, 1),
    "rejecting native": (DEAD.replace("np.tan(x)\n", "np.transpose(x, out=out)\n", 1), NP, 1),
    "forwards natively": (DEAD.replace("np.tan(x)\n", "np.tan(x, out=out)\n", 1), NP, 0),
    "a method given out": (DEAD.replace("np.tan(x)\n", "x.tan(out=out)\n", 1), NP, 0),
    "takes no out": (DEAD.replace("def tan(x, /, *, out=None)", "def tan(x, /)"), NP, 1),
    "takes **kwargs": (
        DEAD.replace("def tan(x, /, *, out=None)", "def tan(x, /, **kw)").replace(
            "np.tan(x)\n", "np.tan(x, **kw)\n", 1
        ),
        NP,
        None,
    ),
    "jax reading out": (
        DEAD.replace("numpy as np", "jax.numpy as np").replace(
            "np.tan(x)\n", "np.add(out, x)\n", 1
        ),
        JAX,
        0,  # out's values read: decided on the ast (the attribute is used)
    ),
    "alias": (
        DEAD.replace("return np.tan(x)\n", "o = out\n    return np.tan(x, out=o)\n", 1),
        NP,
        None,
    ),
    "helper": (DEAD.replace("return np.tan(x)\n", "return sin(x, out=out)\n", 1), NP, 0),
    "out's attribute read": (
        DEAD.replace("np.tan(x)\n", "np.tan(x).astype(out.dtype)\n", 1),
        NP,
        0,
    ),
    "defined twice": (DEAD + DEAD.replace("import ivy\nimport numpy as np\n", ""), NP, 2),
}


@pytest.mark.parametrize("name", sorted(VARIANTS_002))
def test_ivy002_variants_agree(name: str) -> None:
    source, path, expected = VARIANTS_002[name]
    example = Example(textwrap.dedent(source), path=path)
    _agree("IVY002", example, expected)


def test_ivy002_fix_offered_as_libcst_offers_it() -> None:
    """The fix's presence follows ``AttributeSite.removal`` (the comparison above checks
    it; this pins the shapes that have none)."""
    rule = _rule("IVY002")
    for name, fixed in (
        ("plain", True),
        ("loop", True),
        ("two targets (no fix)", False),
        ("loop over a set (no fix)", False),
        ("loop doing more (no fix)", False),
        ("loop doing more on one line", True),
    ):
        source, path, _ = VARIANTS_002[name]
        answer = _answer(rule, Example(textwrap.dedent(source), path=path))
        assert answer is not None
        assert (answer[0].fix_description is not None) is fixed, name


def test_ivy002_never_handed_on_a_gated_wrapper() -> None:
    """The project's wrapper never hands JAX the buffer: the finding says so, as a warning."""
    rule = _rule("IVY002")
    source, _, _ = VARIANTS_002["jax"]
    example = Example(
        textwrap.dedent(source),
        path=JAX,
        files={
            ivy002.WRAPPER: ivy002._WRAPPER_GATED,
            ivy002.JAX_GRADIENTS: ivy002._ALWAYS_TRAINABLE,
        },
    )
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    assert answer is not None and len(answer) == 1
    assert "never hands" in answer[0].message


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
