"""IVY001 on the shapes of ``out``'s flow, one check for every front door.

Each shape (the plain one moved around the file's text, and ``out`` through aliases,
dictionaries, helpers, reads, escapes, tuple annotations, early returns) is checked with
and without fix edits: the findings (line, column, end column, whether the unsafe fix is
offered, the end of the message) are the ones the libcst check reported before the rule
moved to CPython's tree, and a fix offered has an edit.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import summarize_file

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
CONFIG = Config(root=Path("/project")).with_overrides(select=("IVY001",))
RULES = list(all_rules().values())
_LACKS = (
    "lacks `support_native_out`, so the wrapper never passes `out` (dead native path, "
    "extra allocation); "
)

PLAIN = """
import numpy as np


def tan(x, /, *, out=None):
    \"\"\"Tangent.\"\"\"
    if out is not None and not np.isscalar(x):
        x = np.asarray(x)
    return np.tan(x, out=out)
"""

VARIANTS = {
    "plain": PLAIN,
    "non-ascii before the name": PLAIN.replace("def tan", "async def tan").replace(
        "Tangent", "Tangent é"
    ),
    "unicode name": PLAIN.replace("tan(x, /", "tanç(x, /"),
    "def spaced": PLAIN.replace("def tan", "def   tan"),
    "tabs": PLAIN.replace("    ", "\t"),
    "crlf": PLAIN.replace("\n", "\r\n"),
    "decorated": PLAIN.replace("def tan", "@some_decorator\ndef tan"),
    "continuation before the name": PLAIN.replace("def tan", "def \\\n    tan"),
    "alias": PLAIN.replace("return np.tan(x, out=out)", "o = out\n    return np.tan(x, out=o)"),
    "dict": PLAIN.replace(
        "return np.tan(x, out=out)", 'kw = {"out": out}\n    return np.tan(x, **kw)'
    ),
    "early return": PLAIN.replace("x = np.asarray(x)", "return np.tan(x)"),
    "return not the last statement": PLAIN.replace(
        "return np.tan(x, out=out)", "y = np.tan(x, out=out)\n    return y"
    ),
    "method of the result": PLAIN.replace(
        "return np.tan(x, out=out)", "return np.tan(x, out=out).astype(x.dtype)"
    ),
    "tuple annotation": PLAIN.replace("out=None)", "out: Optional[Tuple[Any]] = None)"),
    "tuple in a comment of the signature": PLAIN.replace(
        "def tan(x, /, *, out=None):", "def tan(\n    x, /, *, out=None  # a tuple\n):"
    ),
    "helper": PLAIN + "\n\ndef sin(x, /, *, out=None):\n    return tan(x, out=out)\n",
    "nested out": PLAIN.replace(
        "return np.tan(x, out=out)", "f = lambda: out\n    return np.tan(x, out=out)"
    ),
    "attribute set": PLAIN + "\n\ntan.support_native_out = True\n",
    "attribute set in a loop": PLAIN + "\n\nfor f in (tan,):\n    f.support_native_out = True\n",
    "attribute set in a block": PLAIN + "\n\nif True:\n    tan.support_native_out = True\n",
    "defined twice": PLAIN + PLAIN.replace("import numpy as np\n", ""),
    "private": PLAIN.replace("def tan", "def _tan"),
    "rejecting native": PLAIN.replace("np.tan(x, out=out)", "np.transpose(x, out=out)"),
    "inplace update": PLAIN.replace(
        "return np.tan(x, out=out)", "return ivy.inplace_update(out, np.tan(x))"
    ),
    "out read": PLAIN.replace("return np.tan(x, out=out)", "return np.tan(out, out=out)"),
    "two natives": PLAIN.replace(
        "return np.tan(x, out=out)", "return np.add(np.tan(x, out=out), 1, out=out)"
    ),
    "one-line def": "import numpy as np\n\n\ndef tan(x, /, *, out=None): return np.tan(x, out=out)\n",
    "no trailing newline": PLAIN.rstrip("\n"),
    "star import helper name": PLAIN.replace("def tan", "def exists"),
    "out taken, never forwarded": PLAIN.replace(
        "return np.tan(x, out=out)", "if x.ndim:\n        return np.tan(x)\n    return x"
    ),
    "native call in a nested function": PLAIN.replace(
        "return np.tan(x, out=out)",
        "def inner(o):\n        return np.tan(x, out=o).astype(x.dtype)\n\n    return inner(1)",
    ),
}


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

FOLLOWED: dict[str, tuple[str, str, int | None, str | None]] = {
    # name: (source, path, and two fields the equivalence suite read)
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


SHAPES: dict[str, tuple[str, str]] = {
    **{name: (source, NP) for name, source in VARIANTS.items()},
    **{name: (source, path) for name, (source, path, _, _) in FOLLOWED.items()},
}

Found = tuple[int, int, int, bool, str]
"""(line, column, end column, fix offered, a text the message has after "lacks ...; ")."""

EXPECTED: dict[str, list[Found]] = {
    "plain": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "non-ascii before the name": [(5, 11, 14, True, "add `tan.support_native_out = True`")],
    "unicode name": [(5, 5, 9, True, "add `tanç.support_native_out = True`")],
    "def spaced": [(5, 7, 10, True, "add `tan.support_native_out = True`")],
    "tabs": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "crlf": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "decorated": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "continuation before the name": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "alias": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "dict": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "early return": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "return not the last statement": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "method of the result": [
        (
            5,
            5,
            8,
            False,
            "but the return on line 9 hands back a method of the native call's result (a new array)",
        )
    ],
    "tuple annotation": [
        (
            5,
            5,
            8,
            False,
            "`out` holds several results here, and the wrapper hands a tuple `out` over without converting its items",
        )
    ],
    "tuple in a comment of the signature": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "helper": [
        (5, 5, 8, True, "add `tan.support_native_out = True`"),
        (12, 5, 8, True, "add `sin.support_native_out = True`"),
    ],
    "nested out": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "attribute set": [],
    "attribute set in a loop": [],
    "attribute set in a block": [],
    "defined twice": [(13, 5, 8, True, "add `tan.support_native_out = True`")],
    "private": [],
    "rejecting native": [],
    "inplace update": [],
    "out read": [],
    "two natives": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "one-line def": [(4, 5, 8, True, "add `tan.support_native_out = True`")],
    "no trailing newline": [(5, 5, 8, True, "add `tan.support_native_out = True`")],
    "star import helper name": [(5, 5, 11, True, "add `exists.support_native_out = True`")],
    "out taken, never forwarded": [],
    "native call in a nested function": [],
    "dropping early return": [(6, 5, 8, False, "the return on line 8 never writes `out`")],
    "guarded early return": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "dropping return in a one-line block": [
        (6, 5, 8, False, "the return on line 7 never writes `out`")
    ],
    "method of the result (numpy rebinds)": [
        (
            6,
            5,
            8,
            False,
            "but the return on line 7 hands back a method of the native call's result (a new array)",
        )
    ],
    "method of the result (torch copies)": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "method of the result in a helper": [
        (
            11,
            5,
            13,
            False,
            "but the return on line 8 hands back a method of the native call's result (a new array)",
        )
    ],
    "public helper": [
        (6, 5, 8, True, "add `tan.support_native_out = True`"),
        (10, 5, 9, True, "add `itan.support_native_out = True`"),
    ],
    "helper by position": [(10, 5, 8, True, "add `tan.support_native_out = True`")],
    "helper taking no out": [],
    "helper dropping out": [],
    "recursive helper": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "out's dtype read": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "out read by a call": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "out read by a call, not a test": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "method of out called": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "return out": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "local dictionary unpacked": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "signature kwargs forwarded": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "tuple word in another annotation": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "tuple result": [
        (
            6,
            5,
            8,
            False,
            "`out` holds several results here, and the wrapper hands a tuple `out` over without converting its items",
        )
    ],
    "tuple word in a comment of the signature": [
        (6, 5, 8, True, "add `tan.support_native_out = True`")
    ],
    "out subscripted": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "out aliased by an annotated assignment": [
        (6, 5, 8, True, "add `tan.support_native_out = True`")
    ],
    "nested def named out": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
    "match capturing out": [(6, 5, 8, True, "add `tan.support_native_out = True`")],
}


def _found(source: str, path: str, *, edits: bool) -> list[Found]:
    index = ProjectIndex.build([summarize_file(source, path, CONFIG.part_of(path))])
    found = check_source(
        source, path=path, config=CONFIG, rules=RULES, index=index, relative_path=path, edits=edits
    )
    assert all(d.fix is None or bool(d.fix.edits) == edits for d in found)
    return [
        (d.line, d.col, d.end_col, d.fix is not None, d.message.split(_LACKS, 1)[1])
        for d in found
        if d.code == "IVY001"
    ]


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shape(name: str) -> None:
    source, path = SHAPES[name]
    source = textwrap.dedent(source)
    for edits in (True, False):
        found = _found(source, path, edits=edits)
        expected = EXPECTED[name]
        assert len(found) == len(expected)
        for got, (line, column, end, fixed, text) in zip(found, expected, strict=True):
            assert got[:4] == (line, column, end, fixed)
            assert text in got[4]


def test_every_shape_has_its_findings() -> None:
    assert set(EXPECTED) == set(SHAPES)
    assert sum(len(found) for found in EXPECTED.values()) >= 40
