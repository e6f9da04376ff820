"""IVY015's ``True`` written as text is the edit libcst renders.

``rules/_text_fixes.true_in_place`` puts ``True`` in place of a falsy
``support_native_out`` value without libcst where the value is one token without
parentheses; libcst (``true_with_libcst``, the rule's fallback) is the reference. Every
generated setting is rendered both ways: where the text path answers, its edit must be
libcst's byte for byte, and it must answer for every plain shape.
"""

from __future__ import annotations

import ast
import itertools

from ivycheck.rules._ast_source import Lines
from ivycheck.rules._text_fixes import true_in_place
from ivycheck.rules.ivy015_native_out_false import true_with_libcst

VALUES = ("False", "None", "0", "0x0", "0b0", "0o0")
SETTINGS = (
    ("tan.support_native_out = {v}\n", True),
    ("tan.support_native_out = {v}  # off\n", True),
    ("tan.support_native_out={v};x = 1\n", True),
    ("x = 1; tan.support_native_out = {v}\n", True),
    ("tan.support_native_out =\t{v}\n", True),
    ('setattr(tan, "support_native_out", {v})\n', True),
    ('setattr(tan, "support_native_out",{v} )  # c\n', True),
    ("tan.support_native_out = ({v})\n", False),
    ("tan.support_native_out = ( {v} )\n", False),
    ("tan.support_native_out = (\n    {v}\n)\n", False),
    ("tan.support_native_out = \\\n    {v}\n", False),
    ("if HAS_OUT:\n    tan.support_native_out = {v}\n", True),
    ("try:\n    tan.support_native_out = {v}\nexcept E:\n    pass\n", True),
    ("tan.support_native_out = {v}  # é\n", True),
)
PREFIXES = ("", "# é ü\n", "import numpy as np\n\n\n")
ENDINGS = ("\n", "\r\n")


def _value_position(source: str) -> tuple[ast.Module, tuple[int, int]]:
    tree = ast.parse(source)
    lines = Lines(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in (False, None, 0):
            if isinstance(node.value, str):
                continue
            return tree, (node.lineno, lines.column(node.lineno, node.col_offset))
    raise AssertionError(source)


def test_text_edits_are_libcsts() -> None:
    taken = compared = 0
    for (setting, plain), value, prefix, ending in itertools.product(
        SETTINGS, VALUES, PREFIXES, ENDINGS
    ):
        source = (prefix + "def tan(x):\n    return x\n\n\n" + setting.format(v=value)).replace(
            "\n", ending
        )
        tree, at = _value_position(source)
        reference = true_with_libcst(source, tree, at)
        assert reference is not None, source
        text = true_in_place(source, at)
        compared += 1
        if text is None:
            assert not plain, source
            continue
        taken += 1
        assert text == reference, (source, text, reference)
    assert compared == len(SETTINGS) * len(VALUES) * len(PREFIXES) * len(ENDINGS)
    assert taken == sum(plain for _, plain in SETTINGS) * len(VALUES) * len(PREFIXES) * 2
