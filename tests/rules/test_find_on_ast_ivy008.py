"""IVY008 decided on CPython's tree: the same findings as its libcst check.

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` decides); both must show the same diagnostics, and the ast answer must
be given with as many findings. The finding sits on the parameter's name, which CPython's
``arg`` starts with; its column is counted in code points.
"""

from __future__ import annotations

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, Rule
from tests.rules.test_find_on_ast import _agree

RULE: type[Rule] = all_rules()["IVY008"]
BACKEND = "ivy/functional/backends/torch/elementwise.py"
DATA_CLASS = "ivy/data_classes/array/elementwise.py"

VARIANTS: dict[str, tuple[str, str, int]] = {
    "positional out": ("def tan(x, out=None):\n    ...\n", BACKEND, 1),
    "annotated, after a slash": (
        "def tan(x, /, out: Optional[ivy.Array] = None):\n    ...\n",
        BACKEND,
        1,
    ),
    "positional-only out": ("def f(x, out, /):\n    ...\n", BACKEND, 1),
    "non-ASCII before out": ("def tan(x, ä='é', out=None):\n    ...\n", BACKEND, 1),
    "tabs": ("def tan(x,\tout=None):\n\t...\n", BACKEND, 1),
    "crlf": ("def tan(x, out=None):\r\n    ...\r\n", BACKEND, 1),
    "async": ("async def tan(x, out=None):\n    ...\n", BACKEND, 1),
    "out on its own line": (
        "def clip(\n    x,\n    lo,\n    out: Optional[ivy.Array] = None,\n):\n    ...\n",
        BACKEND,
        1,
    ),
    "before *args": ("def sort(x, out=None, *args):\n    ...\n", BACKEND, 1),
    "keyword-only": ("def tan(x, *, out=None):\n    ...\n", BACKEND, 0),
    "private helper": ("def _tan(x, out=None):\n    ...\n", BACKEND, 0),
    "method with a view wrapper": (
        "class Array:\n    @handle_view\n    def add(self, x2, out=None):\n        ...\n",
        DATA_CLASS,
        1,
    ),
    "method without a wrapper": (
        "class Array:\n    def add(self, x2, out=None):\n        ...\n",
        DATA_CLASS,
        0,
    ),
    "method with another decorator": (
        "class Array:\n    @functools.cache\n    def add(self, x2, out=None):\n        ...\n",
        DATA_CLASS,
        0,
    ),
    "wrapped by assignment": (
        "def add(x, out=None):\n    ...\n\n\nadd = handle_out_argument(add)\n",
        DATA_CLASS,
        1,
    ),
    "nested function, wrapped": (
        "def outer():\n    @handle_out_argument\n    def inner(x, out=None):\n        ...\n",
        DATA_CLASS,
        1,
    ),
    "two functions": (
        "def tan(x, out=None):\n    ...\n\n\ndef sin(x, /, out=None, *, y=1):\n    ...\n",
        BACKEND,
        2,
    ),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variants_agree(name: str) -> None:
    code, path, expected = VARIANTS[name]
    example = Example(code, path=path)
    _agree("IVY008", example, expected)
