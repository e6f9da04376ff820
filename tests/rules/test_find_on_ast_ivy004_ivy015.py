"""IVY004's and IVY015's ``find_on_ast``: the shapes they answer, and those they leave to libcst.

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


# IVY004 --------------------------------------------------------------------------------

_API_004 = {
    API: """
    @handle_out_argument
    def nansum(x, /, *, out=None):
        return current_backend(x).nansum(x, out=out)


    def var(x, /, *, out=None):
        return current_backend(x).var(x, out=out)
    """,
}
"""``nansum`` is wrapped by ``handle_out_argument`` (its backend's ``out`` is ``None``);
``var`` is not."""

PLAIN_004 = """
import jax.numpy as jnp


def nansum(x, /, *, axis=None, out=None):
    if out is not None:
        x = x + 1
    return jnp.nansum(x, axis=axis, out=out)


def var(x, /, *, out=None):
    y = jnp.var(x, out=out)
    return y


def tan(x, /, *, out=None):
    return jnp.tan(x, out=out)
"""
"""No finding in ``nansum`` (wrapped: ``out`` is ``None`` there), one in ``var`` (not
wrapped, its ``out`` declared), one in ``tan`` (no ``out`` at all)."""

_VAR_CALL = "    y = jnp.var(x, out=out)"
_NANSUM_CALL = "    return jnp.nansum(x, axis=axis, out=out)"

VARIANTS_004: dict[str, str] = {
    "plain": PLAIN_004,
    "none before, own line": PLAIN_004.replace(_VAR_CALL, "    out = None\n" + _VAR_CALL),
    "none before, in a block": PLAIN_004.replace(
        _VAR_CALL, "    if x.ndim:\n        out = None\n    else:\n" + "    " + _VAR_CALL
    ),
    "none before, one-line if": PLAIN_004.replace(
        _VAR_CALL, "    if x.ndim: out = None\n" + _VAR_CALL
    ),
    "none before, after a semicolon": PLAIN_004.replace(
        _VAR_CALL, "    z = 1; out = None\n" + _VAR_CALL
    ),
    "none before, semicolon after": PLAIN_004.replace(
        _VAR_CALL, "    out = None; z = 1\n" + _VAR_CALL
    ),
    "none and the call in a one-line if": PLAIN_004.replace(
        _VAR_CALL, "    if x.ndim: out = None; y = jnp.var(x, out=out)\n    y = 1"
    ),
    "none on the call's line": PLAIN_004.replace(_VAR_CALL, "    out = None;" + _VAR_CALL),
    "none in an earlier branch": PLAIN_004.replace(
        _VAR_CALL, "    if x.ndim:\n        out = None\n    elif x.size:\n    " + _VAR_CALL
    ),
    "rebound by a loop": PLAIN_004.replace(
        _NANSUM_CALL, "    for out in (x,):\n        pass\n" + _NANSUM_CALL
    ),
    "loop variable in the loop": PLAIN_004.replace(
        _NANSUM_CALL, "    for out in (x,):\n    " + _NANSUM_CALL
    ),
    "rebound by with": PLAIN_004.replace(
        _NANSUM_CALL, "    with open(x) as out:\n        pass\n" + _NANSUM_CALL
    ),
    "rebound by a walrus": PLAIN_004.replace(
        _NANSUM_CALL, "    if (out := None) is None:\n        pass\n" + _NANSUM_CALL
    ),
    "attribute name in a target": PLAIN_004.replace(_NANSUM_CALL, "    x.out = 1\n" + _NANSUM_CALL),
    "comprehension variable": PLAIN_004.replace(
        _NANSUM_CALL, "    z = [out for out in (x,)]\n" + _NANSUM_CALL
    ),
    "attribute set": PLAIN_004 + "\n\nnansum.support_native_out = True\n",
    "attribute set with setattr": PLAIN_004 + '\n\nsetattr(nansum, "support_native_out", True)\n',
    "nested function": PLAIN_004.replace(
        _NANSUM_CALL, "    def inner(out=None):\n    " + _NANSUM_CALL + "\n\n    return inner()"
    ),
    "versioned helper": PLAIN_004.replace("def tan(", "def tan_v_0p4p0_and_above("),
    "function-level import": PLAIN_004.replace(
        "    return jnp.tan(x, out=out)",
        "    from jax.numpy import tan\n\n    return tan(x, out=out)",
    ),
    "local name hides the import": PLAIN_004.replace(
        "    return jnp.tan(x, out=out)", "    jnp = x\n    return jnp.tan(x, out=out)"
    ),
    "literal none to a function without out": PLAIN_004.replace(
        "jnp.tan(x, out=out)", "jnp.tan(x, out=None)"
    ),
    "module-level call": PLAIN_004 + "\n\nw = jnp.var(1, out=o)\n",
    "multi-line call": PLAIN_004.replace(
        "jnp.tan(x, out=out)", "jnp.tan(\n        x,\n        out=(out),\n    )"
    ),
    "non-ascii before the call": PLAIN_004.replace(
        "jnp.tan(x, out=out)", 'jnp.tan("é日本", out=out)'
    ),
    "non-ascii name": PLAIN_004.replace("def tan(x", "def tanç(x"),
    "tabs": PLAIN_004.replace("    ", "\t"),
    "crlf": PLAIN_004.replace("\n", "\r\n"),
    "async def": PLAIN_004.replace("def var", "async def var"),
    "one-line def": PLAIN_004.replace(
        "def tan(x, /, *, out=None):\n    return", "def tan(x, /, *, out=None): return"
    ),
    "match case": PLAIN_004.replace(
        _NANSUM_CALL,
        "    match x:\n        case _:\n            out = None\n        " + _NANSUM_CALL,
    ),
    "in an except* handler": PLAIN_004.replace(
        _NANSUM_CALL,
        "    out = None\n    try:\n        pass\n    except* ValueError:\n        out = 1\n"
        "    " + _NANSUM_CALL,
    ),
    "call in an except* handler": PLAIN_004.replace(
        _VAR_CALL,
        "    try:\n        pass\n    except* ValueError:\n        out = None\n    " + _VAR_CALL,
    ),
    "in an except handler": PLAIN_004.replace(
        _NANSUM_CALL,
        "    try:\n        out = None\n    except ValueError:\n        out = None\n    "
        + _NANSUM_CALL,
    ),
    "in a finally block": PLAIN_004.replace(
        _VAR_CALL, "    try:\n        pass\n    finally:\n        out = None\n    " + _VAR_CALL
    ),
    "in a loop's else": PLAIN_004.replace(
        _VAR_CALL,
        "    while x:\n        out = None\n    else:\n        out = None\n    " + _VAR_CALL,
    ),
    "in a class in the function": PLAIN_004.replace(
        _VAR_CALL, "    class A:\n        out = None\n    " + _VAR_CALL
    ),
    # Declined: what libcst reads is not plain on CPython's tree.
    "continuation before none": PLAIN_004.replace(
        _VAR_CALL, "    z = 1; \\\n    out = None\n" + _VAR_CALL
    ),
    "attribute set in a loop": PLAIN_004
    + "\n\nfor fn in (nansum,):\n    fn.support_native_out = True\n",
    "attribute set in a block": PLAIN_004 + "\n\nif True:\n    nansum.support_native_out = True\n",
}

DECLINED_004 = {
    "continuation before none",
    "attribute set in a loop",
    "attribute set in a block",
    "attribute set with setattr",
}


def _variant_004(name: str) -> Example:
    return Example(textwrap.dedent(VARIANTS_004[name]), path=JAX, files=_API_004)


@pytest.mark.parametrize("name", sorted(VARIANTS_004))
def test_ivy004_variants_agree(name: str) -> None:
    rule = _rule("IVY004")
    example = _variant_004(name)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if name in DECLINED_004:
        assert answer is None, name
    else:
        assert answer is not None, name
        assert len(answer) == len(with_edits), name


def test_ivy004_plain_findings() -> None:
    """The plain file's two findings, their spans and messages, decided on the ast."""
    rule = _rule("IVY004")
    answer = _answer(rule, _variant_004("plain"))
    assert answer is not None
    assert [(f.line, f.column, f.end_line, f.end_column) for f in answer] == [
        (11, 19, 11, 26),
        (16, 22, 16, 29),
    ]
    assert "declares `out` only to raise" in answer[0].message
    assert "`jax.numpy.tan` takes no `out`" in answer[1].message
    none_before = _answer(rule, _variant_004("none before, own line"))
    assert none_before is not None and len(none_before) == 1
    grouped = _answer(rule, _variant_004("none before, after a semicolon"))
    assert grouped is not None and len(grouped) == 2


# IVY004's advice follows the project's wrapper ------------------------------------------


@pytest.mark.parametrize(
    ("case", "ending"),
    [
        (
            0,
            "; drop `out=` and write `out` with `ivy.inplace_update(out, ret)` (the project's "
            "wrapper returns the result without writing `out`)",
        ),
        (1, "; drop `out=`"),
        (2, "; drop `out=` and let the wrapper write `out`"),
    ],
)
def test_ivy004_advice_claims_what_the_wrapper_does_only_where_it_is_read(
    case: int, ending: str
) -> None:
    """The same call under a wrapper that leaves `out` unwritten without the attribute, one
    whose write this model cannot read, and none (Ivy's default: JAX's update rebinds): the
    advice says the wrapper writes `out` only in the last, and says nothing of it where the
    wrapper is unread. Both checks give the same text, and the ast check answers."""
    rule = _rule("IVY004")
    example = rule.INVALID[case]
    with_edits, without = _both(rule, example)
    assert _shown(with_edits) == _shown(without)
    (found,) = without
    assert found.message.endswith(ending)
    answered = _answer(rule, example)
    assert answered is not None and len(answered) == 1
    assert answered[0].message == found.message
