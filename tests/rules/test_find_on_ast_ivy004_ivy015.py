"""IVY015's ``find_on_ast``: the shapes it answers, and those it leaves to libcst (IVY004's
shapes: ``test_ivy004_shapes.py``).

Each variant is checked with fix edits (libcst decides) and without (the rule may decide on
CPython's tree); both must show the same diagnostics. Where the ast check is meant to answer,
the test also asserts that it does (and how many findings it gives), so that a rule answering
``None`` everywhere would fail; where it must not (shapes it cannot read exactly), it asserts
``None``.
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.core.rule import Example
from tests.rules.test_find_on_ast import _answer, _both, _rule, _shown

NP = "ivy/functional/backends/numpy/example.py"
JAX = "ivy/functional/backends/jax/example.py"
API = "ivy/functional/ivy/example.py"


# IVY015 --------------------------------------------------------------------------------

_API_015 = {
    API: """
    @handle_out_argument
    def tan(x, /, *, out=None):
        return current_backend(x).tan(x, out=out)


    @handle_out_argument
    def sin(x, /, *, out=None):
        return current_backend(x).sin(x, out=out)


    def cos(x, /, *, out=None):
        return current_backend(x).cos(x, out=out)
    """,
}
"""``tan`` and ``sin`` are wrapped by ``handle_out_argument``; ``cos`` is not (dead code)."""

PLAIN_015 = """
import numpy as np


def tan(x, /, *, out=None):
    if out is not None and not np.isscalar(x):
        x = np.asarray(x)
    return np.tan(x, out=out)


def sin(x, /, *, out=None):
    return np.sin(x)


tan.support_native_out = False
sin.support_native_out = None  # not supported
"""
"""``tan`` uses the buffer (write ``True``), ``sin`` does not (remove the line)."""

_TAN_LINE = "tan.support_native_out = False"

VARIANTS_015: dict[str, str] = {
    "plain": PLAIN_015,
    "setattr": PLAIN_015.replace(_TAN_LINE, 'setattr(tan, "support_native_out", False)'),
    "setattr, single quotes": PLAIN_015.replace(
        _TAN_LINE, "setattr(tan, 'support_native_out', False)  # é"
    ),
    "zero as hex": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out = 0x0"),
    "parenthesized value": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out = (False)"),
    "tab inside": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out =\tFalse"),
    "non-ascii comment": PLAIN_015.replace(_TAN_LINE, _TAN_LINE + "  # ça ne marche pas"),
    "non-ascii text before": PLAIN_015.replace("import numpy", "# é, ü, 日本\nimport numpy"),
    "non-ascii name": PLAIN_015.replace("sin", "sinç"),
    "crlf": PLAIN_015.replace("\n", "\r\n"),
    "tabs": PLAIN_015.replace("    ", "\t"),
    "async def": PLAIN_015.replace("def tan", "async def tan"),
    "dead code": PLAIN_015 + "\n\ndef cos(x):\n    return x\n\n\ncos.support_native_out = 0\n",
    "no out parameter": PLAIN_015.replace("def sin(x, /, *, out=None)", "def sin(x)"),
    "no such function": PLAIN_015.replace("sin.support", "cosh.support"),
    "true is not reported": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out = True"),
    "defined twice": PLAIN_015.replace(
        "\n\ntan.support", "\n\ndef tan(x, /, *, out=None):\n    return x\n\n\ntan.support"
    ),
    "set inside a function": PLAIN_015.replace(
        _TAN_LINE, "def mark(fn):\n    fn.support_native_out = False"
    ),
    # Declined: CPython's tree does not show libcst's site, span or text exactly.
    "zero spelled 00": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out = 00"),
    "semicolon after": PLAIN_015.replace(_TAN_LINE, _TAN_LINE + ";"),
    "two on a line": PLAIN_015.replace(_TAN_LINE, "x = 1; " + _TAN_LINE),
    "continuation": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out = \\\n    False"),
    "two targets": PLAIN_015.replace(_TAN_LINE, "x = " + _TAN_LINE),
    "in a loop": PLAIN_015.replace(
        _TAN_LINE, "for fn in (tan,):\n    fn.support_native_out = False"
    ),
    "in a block": PLAIN_015.replace(_TAN_LINE, "if True:\n    " + _TAN_LINE),
    "annotated": PLAIN_015.replace(_TAN_LINE, "tan.support_native_out: bool = False"),
    "concatenated string": PLAIN_015.replace(
        _TAN_LINE, 'setattr(tan, "support_" "native_out", False)'
    ),
    "alias of out": PLAIN_015.replace(
        "return np.tan(x, out=out)", "o = out\n    return np.tan(x, out=o)"
    ),
    "out's values read": PLAIN_015.replace(
        "return np.tan(x, out=out)", "return np.tan(out[0], out=out)"
    ),
    "out returned": PLAIN_015.replace(
        "return np.tan(x, out=out)", "np.tan(x, out=out)\n    return out"
    ),
    "helper": PLAIN_015.replace("return np.sin(x)", "return tan(x, out=out)"),
}

ANSWERED_015 = {
    "plain": 2,
    "setattr": 2,
    "setattr, single quotes": 2,
    "zero as hex": 2,
    "parenthesized value": 2,
    "tab inside": 2,
    "non-ascii comment": 2,
    "non-ascii text before": 2,
    "non-ascii name": 2,
    "crlf": 2,
    "tabs": 2,
    "async def": 2,
    "dead code": 3,
    "no out parameter": 2,
    "no such function": 2,
    "true is not reported": 1,
    "defined twice": 2,
    "set inside a function": 1,
}
"""Variants the ast check answers, with the number of findings."""


def _variant_015(name: str) -> Example:
    return Example(textwrap.dedent(VARIANTS_015[name]), path=NP, files=_API_015)


@pytest.mark.parametrize("name", sorted(VARIANTS_015))
def test_ivy015_variants_agree(name: str) -> None:
    rule = _rule("IVY015")
    example = _variant_015(name)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if name in ANSWERED_015:
        assert answer is not None, name
        assert len(answer) == ANSWERED_015[name] == len(with_edits), name
    else:
        assert answer is None, name


def test_ivy015_answers_the_three_kinds_of_finding() -> None:
    """Write ``True`` (the function forwards ``out`` natively), remove the line, and the
    dead line (no ``handle_out_argument``: a warning of category dead-code)."""
    with_edits, without = _both(_rule("IVY015"), _variant_015("dead code"))
    assert _shown(without) == _shown(with_edits)
    shown = {(d.line, d.fix.description if d.fix else None, d.category) for d in without}
    assert shown == {
        (14, "Write `True`", "correctness"),
        (15, "Remove the `support_native_out` attribute", "correctness"),
        (22, "Remove the `support_native_out` attribute", "dead-code"),
    }


def test_ivy015_wrapper_reading_the_value_answers_nothing() -> None:
    files = {
        **_API_015,
        "ivy/func_wrapper.py": """
        def handle_out_argument(fn):
            native = getattr(fn, "support_native_out", False)

            def _wrapped(*args, out=None, **kwargs):
                if native and out is not None:
                    return fn(*args, out=out.data, **kwargs)
                return fn(*args, **kwargs)

            return _wrapped
        """,
    }
    example = Example(textwrap.dedent(VARIANTS_015["in a loop"]), path=NP, files=files)
    assert _answer(_rule("IVY015"), example) == []
