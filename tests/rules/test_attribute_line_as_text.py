"""IVY001's attribute line written as text is the edit libcst renders.

``rules/_text_fixes.line_after_function`` puts ``name.support_native_out = True`` after a
top-level function without libcst where only empty lines stand between the function and
the next statement (or the file's end); libcst (``attribute_with_libcst``, the rule's
fallback) is the reference. Every generated shape is rendered both ways: where the text
path answers, its edit must be libcst's byte for byte, and it must answer for every plain
shape.
"""

from __future__ import annotations

import ast
import itertools
import random

from ivycheck.rules._ast_source import Lines
from ivycheck.rules._text_fixes import (
    attribute_with_libcst,
    line_after_function,
    statement_through_next,
)

PREFIXES = ("", "import numpy as np\n\n\n", "# c\nx = 1\n")
DECORATORS = ("", "@d\n", "@d(\n    1,\n)\n")
FUNCTIONS = (
    "def tan(x, *, out=None):\n    return np.tan(x, out=out)\n",
    "async def tan(x, *, out=None):\n    return x  # c\n",
    'def tan(x, *, out=None):\n    """doc\n    more"""\n',
    "def tan(x, *, out=None):\n    def inner():\n        pass\n    return inner\n",
    "def tan(x, *, out=None): return np.tan(x, out=out)\n",
    "def tan(x, *, out=None):\n    return (\n        x\n    )\n",
    "def tan(x, *, out=None):\n    if x:\n        return x\n    # why\n    return x\n",
)
BETWEEN = (
    ("", True),
    ("\n", True),
    ("\n\n", True),
    ("\n\n\n\n", True),
    ("    # c\n", False),
    ("# c\n", False),
    ("\n# c\n\n", False),
    ("  \n", False),
    ("\t\n\n", False),
)
FOLLOWING = (
    "",
    "def cos(x):\n    return x\n",
    "@w\ndef cos(x):\n    pass\n",
    "x = 1\n",
    "if c:\n    y = 2\n",
    "class A:\n    pass\n",
)
ENDINGS = ("\n", "\r\n")
COMMENTS = ("", "  # type: ignore[attr-defined]")


def _render_both(source: str, comment: str) -> tuple[object, object]:
    tree = ast.parse(source)
    lines = Lines(source)
    function = next(s for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef))
    at = lines.name_position(function)
    added = f"tan.support_native_out = True{comment}\n"
    index = tree.body.index(function)
    span = statement_through_next(tree, index, len(lines.lines))
    return (
        line_after_function(source, tree, index, span, added),
        attribute_with_libcst(source, span, at, added),
    )


def test_text_edits_are_libcsts() -> None:
    shapes = list(
        itertools.product(PREFIXES, DECORATORS, FUNCTIONS, BETWEEN, FOLLOWING, ENDINGS, COMMENTS)
    )
    taken = 0
    for prefix, decorator, function, (between, plain), following, ending, comment in random.Random(
        1
    ).sample(shapes, 900):
        source = (prefix + decorator + function + between + following).replace("\n", ending)
        text, reference = _render_both(source, comment)
        assert reference is not None, source
        if text is None:
            assert not plain or ending != "\n", source
            continue
        taken += 1
        assert text == reference, (source, text, reference)
    assert taken > 150  # every plain shape with \n line breaks (checked above)
