"""IVY015 on the shapes of a falsy ``support_native_out``, one check for every front door.

Each shape (the plain one moved around the file's text, other spellings of the setting,
lines it shares, loops and blocks, and functions that use the buffer or not) is checked
with and without fix edits: the findings (span, which message, and the fix's edits) are
the ones the libcst check reported before the rule moved to CPython's tree.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Edit as TextEdit
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import summarize_file

NP = "ivy/functional/backends/numpy/example.py"
API = "ivy/functional/ivy/example.py"
CONFIG = Config(root=Path("/project")).with_overrides(select=("IVY015",))
RULES = list(all_rules().values())

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


Edit = tuple[int, int, int, int, str]
Found = tuple[int, int, int, int, str, tuple[Edit, ...] | None]
"""(line, column, end line, end column, the message's kind, the fix's edits or None)."""

EXPECTED: dict[str, list[Found]] = {
    "plain": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "setattr": [
        (15, 1, 15, 42, "uses", ((15, 36, 15, 40, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "setattr, single quotes": [
        (15, 1, 15, 42, "uses", ((15, 36, 15, 40, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "zero as hex": [
        (15, 1, 15, 29, "uses", ((15, 26, 15, 29, "True"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "parenthesized value": [
        (15, 1, 15, 33, "uses", ((15, 26, 15, 33, "True"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "tab inside": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "non-ascii comment": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "non-ascii text before": [
        (16, 1, 16, 31, "uses", ((16, 26, 16, 30, "Tru"),)),
        (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),)),
    ],
    "non-ascii name": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 31, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "crlf": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "tabs": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "async def": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "dead code": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
        (23, 1, 23, 27, "dead", ((21, 1, 24, 1, ""),)),
    ],
    "no out parameter": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "no such function": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 31, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "true is not reported": [(16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),))],
    "defined twice": [
        (19, 1, 19, 31, "remove", ((17, 1, 20, 1, ""),)),
        (20, 1, 20, 30, "remove", ((20, 1, 21, 1, ""),)),
    ],
    "set inside a function": [(17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),))],
    "zero spelled 00": [(16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),))],
    "semicolon after": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "two on a line": [
        (15, 8, 15, 38, "uses", ((15, 33, 15, 37, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "continuation": [
        (15, 1, 16, 10, "uses", ((16, 5, 16, 9, "Tru"),)),
        (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),)),
    ],
    "two targets": [
        (15, 1, 15, 35, "uses", ((15, 30, 15, 34, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "in a loop": [(16, 5, 16, 34, "uses", None), (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),))],
    "in a block": [
        (16, 5, 16, 35, "uses", ((16, 30, 16, 34, "Tru"),)),
        (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),)),
    ],
    "annotated": [(16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),))],
    "concatenated string": [(16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),))],
    "alias of out": [
        (16, 1, 16, 31, "uses", ((16, 26, 16, 30, "Tru"),)),
        (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),)),
    ],
    "out's values read": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "remove", ((16, 1, 17, 1, ""),)),
    ],
    "out returned": [
        (16, 1, 16, 31, "uses", ((16, 26, 16, 30, "Tru"),)),
        (17, 1, 17, 30, "remove", ((17, 1, 18, 1, ""),)),
    ],
    "helper": [
        (15, 1, 15, 31, "uses", ((15, 26, 15, 30, "Tru"),)),
        (16, 1, 16, 30, "uses", ((16, 26, 16, 29, "Tru"),)),
    ],
}

_KINDS = {
    "uses": ("the function uses the buffer it is handed", "Write `True`", "correctness"),
    "remove": (
        "tests presence, not value; remove",
        "Remove the `support_native_out`",
        "correctness",
    ),
    "dead": ("is read by nothing", "Remove the `support_native_out`", "dead-code"),
}


def _found(source: str, *, edits: bool) -> list[Found]:
    files = {NP: source, **{p: textwrap.dedent(s) for p, s in _API_015.items()}}
    index = ProjectIndex.build(summarize_file(s, p, CONFIG.part_of(p)) for p, s in files.items())
    found = check_source(
        source, path=NP, config=CONFIG, rules=RULES, index=index, relative_path=NP, edits=edits
    )
    rows: list[Found] = []
    for d in found:
        kind = next(k for k, (text, _, _) in _KINDS.items() if text in d.message)
        _, description, category = _KINDS[kind]
        assert d.category == category
        assert d.fix is None or d.fix.description.startswith(description)
        fix = None if d.fix is None else tuple(_edit(e) for e in d.fix.edits)
        rows.append((d.line, d.col, d.end_line, d.end_col, kind, fix))
    return rows


def _edit(edit: TextEdit) -> Edit:
    return (edit.line, edit.col, edit.end_line, edit.end_col, edit.content)


@pytest.mark.parametrize("name", sorted(VARIANTS_015))
def test_shape(name: str) -> None:
    source = textwrap.dedent(VARIANTS_015[name])
    assert _found(source, edits=True) == EXPECTED[name]
    without = [(*row[:5], None if row[5] is None else ()) for row in EXPECTED[name]]
    assert _found(source, edits=False) == without


def test_every_shape_has_its_findings() -> None:
    assert set(EXPECTED) == set(VARIANTS_015)
    assert sum(len(found) for found in EXPECTED.values()) >= 50
