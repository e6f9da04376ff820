"""IVY009 decided on CPython's tree: the same findings as its libcst check, or no answer.

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` may decide); both must show the same diagnostics. Where the ast check
reads the annotation as libcst does it must answer (with as many findings), and where it
cannot (a string annotation, parentheses, a multi-line annotation with ``\\r\\n``) it must
say ``None``.
"""

from __future__ import annotations

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, Rule
from tests.rules.test_find_on_ast import _answer, _both, _shown

RULE: type[Rule] = all_rules()["IVY009"]
API = "ivy/functional/ivy/elementwise.py"

HEAD = "from typing import Optional, Tuple, Union\nimport ivy\n\n"

ANSWERED: dict[str, str] = {
    "union with a native array": (
        "def tan(x, /, *, out: Optional[Union[ivy.Array, ivy.NativeArray]] = None):\n    ...\n"
    ),
    "spaces around the colon": "def tan(x, *, out  :   ivy.Array = None):\n    ...\n",
    "non-ASCII before the annotation": (
        "def tan(x, ä='é', *, out: Optional[ivy.NativeArray] = None):\n    ...\n"
    ),
    "non-ASCII inside the annotation": (
        "def tan(x, *, out: Optional[Union[ivy.Array, 'ünïcode']] = None):\n    ...\n"
    ),
    "tabs": "def tan(x,\t*,\tout:\tOptional[ivy.NativeArray] = None):\n\t...\n",
    "across lines, with a comment": (
        "def tan(x, *, out: Optional[Union[ivy.Array,  # either\n"
        "                                  ivy.NativeArray]] = None):\n"
        "    ...\n"
    ),
    "crlf on one line": ("def tan(x, *, out: Optional[ivy.NativeArray] = None):\r\n    ...\r\n"),
    "async": "async def tan(x, *, out: ivy.Array = None):\n    ...\n",
    "method and nested function": (
        "class K:\n"
        "    def tan(self, *, out: ivy.NativeArray = None):\n"
        "        def inner(y, out: Optional[Union[ivy.Array, ivy.Container]] = None):\n"
        "            ...\n"
    ),
    "nestable with a container": (
        "@handle_nestable\n"
        "def tan(x, *, out: Optional[Union[ivy.Array, ivy.Container, ivy.NativeArray]] = None):\n"
        "    ...\n"
    ),
    "tuple of results": (
        "def qr(x, *, out: Optional[Tuple[ivy.Array, ivy.NativeArray]] = None):\n    ...\n"
    ),
    "two findings and an accepted one": (
        "def tan(x, *, out: ivy.Array = None):\n    ...\n\n"
        "def sin(x, *, out: Optional[ivy.Array] = None):\n    ...\n\n"
        "def cos(x, *, out: ivy.Array | ivy.NativeArray | None = None):\n    ...\n"
    ),
    "a parenthesized operand (inside the node for both)": (
        "def tan(x, *, out: (ivy.NativeArray) | None = None):\n    ...\n"
    ),
    "annotated None": "def choose(x, *, out: None = None):\n    ...\n",
    "nothing to report": "def tan(x, *, out: Optional[ivy.Array] = None):\n    ...\n",
}

DECLINED: dict[str, str] = {
    "string annotation": "def tan(x, *, out: 'ivy.NativeArray | None' = None):\n    ...\n",
    "parenthesized": "def tan(x, *, out: (Optional[ivy.NativeArray]) = None):\n    ...\n",
    "across lines with crlf": (
        "def tan(x, *, out: Optional[Union[ivy.Array,\r\n"
        "                                  ivy.NativeArray]] = None):\r\n"
        "    ...\r\n"
    ),
}


def _example(body: str) -> Example:
    newline = "\r\n" if "\r\n" in body else "\n"
    return Example(HEAD.replace("\n", newline) + body, path=API)


@pytest.mark.parametrize("name", [*ANSWERED, *DECLINED])
def test_variants_agree(name: str) -> None:
    example = _example({**ANSWERED, **DECLINED}[name])
    with_edits, without = _both(RULE, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(RULE, example)
    if name in DECLINED:
        assert answer is None
    else:
        assert answer is not None
        assert len(answer) == len([d for d in with_edits if d.code == "IVY009"])


def test_variants_report_what_they_should() -> None:
    """The variants above are not vacuous: they hold findings, and one is clean."""
    counts = {
        name: len([d for d in _both(RULE, _example(body))[0] if d.code == "IVY009"])
        for name, body in ANSWERED.items()
    }
    assert counts["two findings and an accepted one"] == 2
    assert counts["method and nested function"] == 2
    assert counts["nothing to report"] == 0
    assert all(
        n == 1
        for name, n in counts.items()
        if name
        not in {
            "two findings and an accepted one",
            "method and nested function",
            "nothing to report",
        }
    )
