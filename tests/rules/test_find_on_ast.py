"""``Rule.find_on_ast`` answers exactly what the libcst check reports, or nothing.

Every rule's examples (and variants that move the finding's name, add non-ASCII text and
wrap the function in the shapes the ast check declines) are checked three ways: with fix
edits (libcst decides), without edits (a rule may decide on CPython's tree), and with the
ast answer forced through the engine. The diagnostics must agree on everything but the
fix's edits: code, positions, message, severity, category, and whether a fix is offered
with which description and safety.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import AstFinding, Example, FileUnderCheck, Rule
from tests.rules.test_examples import CONFIG, _index

RULES = list(all_rules().values())
DECIDING = [
    rule
    for rule in RULES
    if rule.find_on_ast.__func__ is not Rule.find_on_ast.__func__  # type: ignore[attr-defined]
]
NP = "ivy/functional/backends/numpy/example.py"


def _rule(code: str) -> type[Rule]:
    """The rule ``code`` among those that decide on CPython's tree (for variant tests)."""
    (rule,) = [r for r in DECIDING if code == r.CODE]
    return rule


def _shown(found: list[Diagnostic]) -> list[tuple[object, ...]]:
    """Everything a text reporter shows of each diagnostic."""
    return [
        (
            d.code,
            d.line,
            d.col,
            d.end_line,
            d.end_col,
            d.message,
            d.severity,
            d.category,
            None if d.fix is None else (d.fix.description, d.fix.safety),
        )
        for d in found
    ]


def _both(rule: type[Rule], example: Example) -> tuple[list[Diagnostic], list[Diagnostic]]:
    config = CONFIG.with_overrides(select=(rule.CODE,))
    index = _index(example)
    runs = [
        check_source(
            example.code,
            path=example.path,
            config=config,
            rules=RULES,
            index=index,
            relative_path=example.path,
            edits=edits,
        )
        for edits in (True, False)
    ]
    return runs[0], runs[1]


def _agree(code: str, example: Example, expected: int | None) -> None:
    """Both ways agree; the ast answers with ``expected`` findings, or declines."""
    rule = all_rules()[code]
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if expected is None:
        assert answer is None
        return
    assert answer is not None
    assert len(answer) == expected
    assert len([d for d in with_edits if d.code == code]) == expected
    assert all(d.fix is None or d.fix.edits == () for d in without)


def _answer(rule: type[Rule], example: Example) -> list[AstFinding] | None:
    path = example.path
    file = FileUnderCheck(example.code, path, path, CONFIG, _index(example))
    if not rule.applies_to(file.part):
        return None  # the engine asks only the rules of the file's part
    return rule.find_on_ast(ast.parse(example.code), file)


def _examples() -> list[object]:
    return [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in DECIDING
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ]


def test_some_rule_decides_on_cpythons_tree() -> None:
    assert "IVY001" in [rule.CODE for rule in DECIDING]


@pytest.mark.parametrize(("rule", "example"), _examples())
def test_examples_agree(rule: type[Rule], example: Example) -> None:
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if answer is not None:
        # The ast answer itself, not libcst's after a fallback, is what agreed: its
        # fixes carry no edits.
        assert len(answer) == len([d for d in with_edits if d.code == rule.CODE])
        assert all(d.fix is None or d.fix.edits == () for d in without)


def test_the_ast_answer_is_given_for_plain_examples() -> None:
    """Without this the comparisons above pass with a rule that always says ``None``."""
    answered = [
        example
        for rule in DECIDING
        for example in (*rule.VALID, *rule.INVALID)
        if _answer(rule, example)
    ]
    assert len(answered) >= 4


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


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variants_agree(name: str) -> None:
    (rule,) = [r for r in DECIDING if r.CODE == "IVY001"]
    with_edits, without = _both(rule, _variant(name))
    assert _shown(without) == _shown(with_edits)


def test_plain_variants_are_answered_on_the_ast() -> None:
    """The shapes the ast check is for are decided there (a ``None`` everywhere would
    pass the comparisons)."""
    (rule,) = [r for r in DECIDING if r.CODE == "IVY001"]
    for name in (
        "plain",
        "non-ascii before the name",
        "unicode name",
        "tabs",
        "crlf",
        "two natives",
    ):
        answer = _answer(rule, _variant(name))
        assert answer is not None and len(answer) == 1, name
    # A guarded early return and a same-file helper are followed on the ast too
    # (tests/rules/test_find_on_ast_outflow_shapes.py has the shapes).
    for name, count in (("early return", 1), ("helper", 2)):
        answer = _answer(rule, _variant(name))
        assert answer is not None and len(answer) == count, name
    for name in ("alias", "dict", "continuation before the name"):
        assert _answer(rule, _variant(name)) is None, name
    for name in ("out taken, never forwarded", "native call in a nested function"):
        assert _answer(rule, _variant(name)) == [], name


def _variant(name: str) -> Example:
    return Example(textwrap.dedent(VARIANTS[name]), path=NP)
