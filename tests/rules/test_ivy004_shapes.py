"""IVY004 on the shapes that decide whether ``out`` is known to be ``None`` at a native call,
and whether a backend function carries ``support_native_out``: each shape's findings
(line, 1-based column), as reviewed.

``PLAIN`` holds three backend functions: ``nansum`` (its API function is wrapped by
``handle_out_argument``, so its ``out`` is ``None`` unless it carries the attribute),
``var`` (not wrapped, ``out`` declared by ``jnp.var``: flagged unless ``out`` is known to be
``None``) and ``tan`` (``jnp.tan`` has no ``out``: always flagged). Each variant moves one
thing: a binding of ``out`` before the call (on its own line, after a ``;``, in a block, a
branch, a handler, behind a backslash continuation or a comment's backslash), or where and
how the attribute is set (a block, a one-line block, a loop, ``setattr`` with one literal
or a concatenation).
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from tests.rules.test_examples import CONFIG, _index

JAX = "ivy/functional/backends/jax/example.py"
API = "ivy/functional/ivy/example.py"

_API = {
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

PLAIN = """
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

VARIANTS: dict[str, str] = {
    "plain": PLAIN,
    "none before, own line": PLAIN.replace(_VAR_CALL, "    out = None\n" + _VAR_CALL),
    "none before, in a block": PLAIN.replace(
        _VAR_CALL, "    if x.ndim:\n        out = None\n    else:\n" + "    " + _VAR_CALL
    ),
    "none before, one-line if": PLAIN.replace(_VAR_CALL, "    if x.ndim: out = None\n" + _VAR_CALL),
    "none before, after a semicolon": PLAIN.replace(
        _VAR_CALL, "    z = 1; out = None\n" + _VAR_CALL
    ),
    "none before, semicolon after": PLAIN.replace(_VAR_CALL, "    out = None; z = 1\n" + _VAR_CALL),
    "none and the call in a one-line if": PLAIN.replace(
        _VAR_CALL, "    if x.ndim: out = None; y = jnp.var(x, out=out)\n    y = 1"
    ),
    "none on the call's line": PLAIN.replace(_VAR_CALL, "    out = None;" + _VAR_CALL),
    "none in an earlier branch": PLAIN.replace(
        _VAR_CALL, "    if x.ndim:\n        out = None\n    elif x.size:\n    " + _VAR_CALL
    ),
    "rebound by a loop": PLAIN.replace(
        _NANSUM_CALL, "    for out in (x,):\n        pass\n" + _NANSUM_CALL
    ),
    "loop variable in the loop": PLAIN.replace(
        _NANSUM_CALL, "    for out in (x,):\n    " + _NANSUM_CALL
    ),
    "rebound by with": PLAIN.replace(
        _NANSUM_CALL, "    with open(x) as out:\n        pass\n" + _NANSUM_CALL
    ),
    "rebound by a walrus": PLAIN.replace(
        _NANSUM_CALL, "    if (out := None) is None:\n        pass\n" + _NANSUM_CALL
    ),
    "attribute name in a target": PLAIN.replace(_NANSUM_CALL, "    x.out = 1\n" + _NANSUM_CALL),
    "comprehension variable": PLAIN.replace(
        _NANSUM_CALL, "    z = [out for out in (x,)]\n" + _NANSUM_CALL
    ),
    "attribute set": PLAIN + "\n\nnansum.support_native_out = True\n",
    "attribute set with setattr": PLAIN + '\n\nsetattr(nansum, "support_native_out", True)\n',
    "nested function": PLAIN.replace(
        _NANSUM_CALL, "    def inner(out=None):\n    " + _NANSUM_CALL + "\n\n    return inner()"
    ),
    "versioned helper": PLAIN.replace("def tan(", "def tan_v_0p4p0_and_above("),
    "function-level import": PLAIN.replace(
        "    return jnp.tan(x, out=out)",
        "    from jax.numpy import tan\n\n    return tan(x, out=out)",
    ),
    "local name hides the import": PLAIN.replace(
        "    return jnp.tan(x, out=out)", "    jnp = x\n    return jnp.tan(x, out=out)"
    ),
    "literal none to a function without out": PLAIN.replace(
        "jnp.tan(x, out=out)", "jnp.tan(x, out=None)"
    ),
    "module-level call": PLAIN + "\n\nw = jnp.var(1, out=o)\n",
    "multi-line call": PLAIN.replace(
        "jnp.tan(x, out=out)", "jnp.tan(\n        x,\n        out=(out),\n    )"
    ),
    "non-ascii before the call": PLAIN.replace("jnp.tan(x, out=out)", 'jnp.tan("é日本", out=out)'),
    "non-ascii name": PLAIN.replace("def tan(x", "def tanç(x"),
    "tabs": PLAIN.replace("    ", "\t"),
    "crlf": PLAIN.replace("\n", "\r\n"),
    "async def": PLAIN.replace("def var", "async def var"),
    "one-line def": PLAIN.replace(
        "def tan(x, /, *, out=None):\n    return", "def tan(x, /, *, out=None): return"
    ),
    "match case": PLAIN.replace(
        _NANSUM_CALL,
        "    match x:\n        case _:\n            out = None\n        " + _NANSUM_CALL,
    ),
    "in an except* handler": PLAIN.replace(
        _NANSUM_CALL,
        "    out = None\n    try:\n        pass\n    except* ValueError:\n        out = 1\n"
        "    " + _NANSUM_CALL,
    ),
    "call in an except* handler": PLAIN.replace(
        _VAR_CALL,
        "    try:\n        pass\n    except* ValueError:\n        out = None\n    " + _VAR_CALL,
    ),
    "in an except handler": PLAIN.replace(
        _NANSUM_CALL,
        "    try:\n        out = None\n    except ValueError:\n        out = None\n    "
        + _NANSUM_CALL,
    ),
    "in a finally block": PLAIN.replace(
        _VAR_CALL, "    try:\n        pass\n    finally:\n        out = None\n    " + _VAR_CALL
    ),
    "in a loop's else": PLAIN.replace(
        _VAR_CALL,
        "    while x:\n        out = None\n    else:\n        out = None\n    " + _VAR_CALL,
    ),
    "in a class in the function": PLAIN.replace(
        _VAR_CALL, "    class A:\n        out = None\n    " + _VAR_CALL
    ),
    # Layout the tree does not keep: a continuation, blocks around the attribute.
    "continuation before none": PLAIN.replace(
        _VAR_CALL, "    z = 1; \\\n    out = None\n" + _VAR_CALL
    ),
    "attribute set in a loop": PLAIN
    + "\n\nfor fn in (nansum,):\n    fn.support_native_out = True\n",
    "attribute set in a block": PLAIN + "\n\nif True:\n    nansum.support_native_out = True\n",
}


_SITE = PLAIN + "\n\n"
VARIANTS.update(
    {
        "attribute in an elif block": _SITE
        + "if c:\n    pass\nelif d:\n    nansum.support_native_out = 1\n",
        "attribute in a one-line if": _SITE + "if c: nansum.support_native_out = True\n",
        "attribute in a one-line else": _SITE
        + "if c:\n    pass\nelse: nansum.support_native_out = True\n",
        "attribute in an except handler": _SITE
        + "try:\n    pass\nexcept E:\n    nansum.support_native_out = 1\n",
        "attribute in a try's else": _SITE
        + "try:\n    pass\nexcept E:\n    pass\nelse:\n    nansum.support_native_out = 1\n",
        "attribute in a finally block": _SITE
        + "try:\n    pass\nfinally:\n    nansum.support_native_out = True\n",
        "attribute in a one-line loop": _SITE + "for f in (nansum,): f.support_native_out = True\n",
        "attribute in a loop's inner block": _SITE
        + "for f in (nansum,):\n    if c:\n        f.support_native_out = True\n",
        "attribute in a loop in a block": _SITE
        + "if c:\n    for f in [nansum]:\n        f.support_native_out = False\n",
        "attribute after a semicolon in a loop": _SITE
        + "for f in {nansum}:\n    x = 1; f.support_native_out = True\n",
        "attribute by setattr, raw string": _SITE
        + "setattr(nansum, r'support_native_out', True)\n",
        "attribute by setattr, parenthesized": _SITE
        + "setattr(nansum, ('support_native_out'), True)\n",
        "attribute by setattr, escaped": _SITE
        + "setattr(nansum, 'support_native\\x5fout', True)\n",
        "attribute by setattr, concatenated": _SITE
        + "setattr(nansum, 'support_native' '_out', True)\n",
        "attribute by setattr, a keyword more": _SITE
        + "setattr(nansum, 'support_native_out', True, k=1)\n",
        "attribute after a continued if": _SITE
        + "if c: \\\n    nansum.support_native_out = True\n",
        "attribute after a comment's backslash": _SITE
        + "if c:  # note \\\n    nansum.support_native_out = True\n",
        "attribute after a continued loop": _SITE
        + "for f in (nansum,): \\\n    f.support_native_out = True\n",
        "attribute in a while block": _SITE + "while c:\n    nansum.support_native_out = True\n",
        "attribute in a tuple target": _SITE + "(nansum.support_native_out, y) = (True, 1)\n",
        "attribute annotated": _SITE + "nansum.support_native_out: bool = True\n",
        "attribute chained": _SITE + "a = nansum.support_native_out = True\n",
        "attribute after a semicolon": _SITE + "x = 1; nansum.support_native_out = True\n",
        "attribute in a function": _SITE + "def g():\n    nansum.support_native_out = True\n",
        "none before, trailing semicolon": PLAIN.replace(
            _VAR_CALL, "    out = None;\n" + _VAR_CALL
        ),
        "none before, after a comment's backslash": PLAIN.replace(
            _VAR_CALL, "    # note \\\n    out = None\n" + _VAR_CALL
        ),
        "none before, continued to a semicolon": PLAIN.replace(
            _VAR_CALL, "    out = None \\\n    ; z = 1\n" + _VAR_CALL
        ),
        "none before, continued to a trailing semicolon": PLAIN.replace(
            _VAR_CALL, "    out = None \\\n    ;\n" + _VAR_CALL
        ),
        "none before, value continued": PLAIN.replace(
            _VAR_CALL, "    out = \\\n        None\n" + _VAR_CALL
        ),
        "none and the call in a continued one-line if": PLAIN.replace(
            _VAR_CALL, "    if x.ndim: \\\n        out = None; y = jnp.var(x, out=out)\n    y = 1"
        ),
        "none and the call in a comment's backslash block": PLAIN.replace(
            _VAR_CALL, "    if x.ndim:  # note \\\n        out = None\n    " + _VAR_CALL
        ),
    }
)

EXPECTED: dict[str, list[tuple[int, int]]] = {}
"""Per variant, its findings (line, column), as reviewed."""
EXPECTED.update(
    {
        "plain": [(11, 20), (16, 23)],
        "none before, own line": [(17, 23)],
        "none before, in a block": [(14, 24), (19, 23)],
        "none before, one-line if": [(12, 20), (17, 23)],
        "none before, after a semicolon": [(12, 20), (17, 23)],
        "none before, semicolon after": [(12, 20), (17, 23)],
        "none and the call in a one-line if": [(11, 43), (17, 23)],
        "none on the call's line": [(11, 35), (16, 23)],
        "none in an earlier branch": [(14, 24), (19, 23)],
        "rebound by a loop": [(9, 37), (13, 20), (18, 23)],
        "loop variable in the loop": [(12, 20), (17, 23)],
        "rebound by with": [(9, 37), (13, 20), (18, 23)],
        "rebound by a walrus": [(9, 37), (13, 20), (18, 23)],
        "attribute name in a target": [(8, 37), (12, 20), (17, 23)],
        "comprehension variable": [(12, 20), (17, 23)],
        "attribute set": [(7, 37), (11, 20), (16, 23)],
        "attribute set with setattr": [(7, 37), (11, 20), (16, 23)],
        "nested function": [(8, 41), (14, 20), (19, 23)],
        "versioned helper": [(11, 20)],
        "function-level import": [(11, 20), (18, 19)],
        "local name hides the import": [(11, 20)],
        "literal none to a function without out": [(11, 20), (16, 23)],
        "module-level call": [(11, 20), (16, 23), (19, 16)],
        "multi-line call": [(11, 20), (18, 9)],
        "non-ascii before the call": [(11, 20), (16, 27)],
        "non-ascii name": [(11, 20), (16, 23)],
        "tabs": [(11, 17), (16, 20)],
        "crlf": [(12, 20), (17, 23)],
        "async def": [(11, 20), (16, 23)],
        "one-line def": [(11, 20), (15, 47)],
        "match case": [(14, 20), (19, 23)],
        "in an except* handler": [(16, 20), (21, 23)],
        "call in an except* handler": [(15, 24), (20, 23)],
        "in an except handler": [(15, 20), (20, 23)],
        "in a finally block": [(20, 23)],
        "in a loop's else": [(20, 23)],
        "in a class in the function": [(18, 23)],
        "continuation before none": [(13, 20), (18, 23)],
        "attribute set in a loop": [(7, 37), (11, 20), (16, 23)],
        "attribute set in a block": [(7, 37), (11, 20), (16, 23)],
        "attribute in an elif block": [(7, 37), (11, 20), (16, 23)],
        "attribute in a one-line if": [(11, 20), (16, 23)],
        "attribute in a one-line else": [(11, 20), (16, 23)],
        "attribute in an except handler": [(7, 37), (11, 20), (16, 23)],
        "attribute in a try's else": [(11, 20), (16, 23)],
        "attribute in a finally block": [(11, 20), (16, 23)],
        "attribute in a one-line loop": [(11, 20), (16, 23)],
        "attribute in a loop's inner block": [(11, 20), (16, 23)],
        "attribute in a loop in a block": [(7, 37), (11, 20), (16, 23)],
        "attribute after a semicolon in a loop": [(7, 37), (11, 20), (16, 23)],
        "attribute by setattr, raw string": [(7, 37), (11, 20), (16, 23)],
        "attribute by setattr, parenthesized": [(7, 37), (11, 20), (16, 23)],
        "attribute by setattr, escaped": [(7, 37), (11, 20), (16, 23)],
        "attribute by setattr, concatenated": [(11, 20), (16, 23)],
        "attribute by setattr, a keyword more": [(11, 20), (16, 23)],
        "attribute after a continued if": [(11, 20), (16, 23)],
        "attribute after a comment's backslash": [(7, 37), (11, 20), (16, 23)],
        "attribute after a continued loop": [(11, 20), (16, 23)],
        "attribute in a while block": [(11, 20), (16, 23)],
        "attribute in a tuple target": [(11, 20), (16, 23)],
        "attribute annotated": [(11, 20), (16, 23)],
        "attribute chained": [(7, 37), (11, 20), (16, 23)],
        "attribute after a semicolon": [(7, 37), (11, 20), (16, 23)],
        "attribute in a function": [(11, 20), (16, 23)],
        "none before, trailing semicolon": [(17, 23)],
        "none before, after a comment's backslash": [(18, 23)],
        "none before, continued to a semicolon": [(13, 20), (18, 23)],
        "none before, continued to a trailing semicolon": [(18, 23)],
        "none before, value continued": [(18, 23)],
        "none and the call in a continued one-line if": [(12, 36), (18, 23)],
        "none and the call in a comment's backslash block": [(18, 23)],
    }
)


def _diagnostics(example: Example) -> list[Diagnostic]:
    return check_source(
        example.code,
        path=example.path,
        config=CONFIG.with_overrides(select=("IVY004",)),
        rules=list(all_rules().values()),
        index=_index(example),
        relative_path=example.path,
    )


def _findings(name: str) -> list[tuple[int, int]]:
    found = _diagnostics(Example(textwrap.dedent(VARIANTS[name]), path=JAX, files=_API))
    return [(d.line, d.col) for d in found]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_ivy004_shape(name: str) -> None:
    assert _findings(name) == EXPECTED[name]


def test_ivy004_plain_findings() -> None:
    """The plain file's two findings: spans (code points) and messages."""
    found = _diagnostics(Example(textwrap.dedent(PLAIN), path=JAX, files=_API))
    assert [(d.line, d.col, d.end_line, d.end_col) for d in found] == [
        (11, 20, 11, 27),
        (16, 23, 16, 30),
    ]
    assert "declares `out` only to raise" in found[0].message
    assert "`jax.numpy.tan` takes no `out`" in found[1].message


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
    wrapper is unread."""
    (found,) = _diagnostics(all_rules()["IVY004"].INVALID[case])
    assert found.message.endswith(ending)
