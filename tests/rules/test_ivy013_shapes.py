"""Shapes of IVY013's findings: how many each setting gets, where each starts and ends, and
what it says, through the engine as every front door runs it.

The shapes vary what CPython's tree does not hold and the check reads from the text:
adjacent string literals (one constant to CPython; not a key, not ``setattr``'s name, but
a bare string as a value), a tuple's own parentheses and its last element's, ``setattr``'s
arguments in the order written (keywords and ``*`` among them), f-strings, tabs, CRLF and
non-ASCII text before a position. Positions are 1-based as the command prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from tests.rules.test_examples import _diagnostics

API = "ivy/functional/ivy/elementwise.py"

_MIXED = "@handle_partial_mixed_function\ndef blend(x, y, /, *, out=None):\n    ...\n\n\n"
"""A mixed function taking ``out``, not wrapped for it."""
_WRAPPED = "@handle_out_argument\n" + _MIXED
"""The same function wrapped for ``out`` on its API path."""
_LACKS = (
    "`blend` takes `out`, but `to_add` of its `mixed_backend_wrappers` lacks "
    "`handle_out_argument`: on a backend whose own implementation ignores `out`, nothing "
    "writes `out`; add it"
)
_NUMPY_IGNORES_OUT = {
    "ivy/functional/backends/numpy/elementwise.py": "def blend(x, y, /, *, out=None):\n"
    "    return x + y\n",
}
_TORCH_USES_OUT = {
    "ivy/functional/backends/torch/elementwise.py": "def blend(x, y, /, *, out=None):\n"
    "    return torch.add(x, y, out=out)\n",
}


@dataclass(frozen=True)
class Shape:
    source: str
    found: list[tuple[int, int, int, int, str]]
    """(line, column, end line, end column, message) of each finding."""
    files: dict[str, str] = field(default_factory=dict)


SHAPES: dict[str, Shape] = {
    "to_add lacks handle_out_argument": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {\n    "to_add": ("inputs_to_native_arrays",),\n    "to_skip": ("inputs_to_ivy_arrays",),\n}\n',
        [(7, 16, 7, 42, _LACKS)],
    ),
    "non-ASCII before the tuple": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {"é": "ü", "to_add": ("inputs_to_native_arrays",)}\n',
        [(6, 54, 6, 80, _LACKS)],
    ),
    "tabs": Shape(
        '@handle_partial_mixed_function\ndef blend(x, y, /, *, out=None):\n\t...\n\n\nblend.mixed_backend_wrappers = {\n\t"to_add":\t(\t"inputs_to_native_arrays",\t),\n}\n',
        [(7, 14, 7, 40, _LACKS)],
    ),
    "crlf, one element a line": Shape(
        '@handle_partial_mixed_function\r\ndef blend(x, y, /, *, out=None):\r\n    ...\r\n\r\n\r\nblend.mixed_backend_wrappers = {\r\n    "to_add": (\r\n        "handle_backend_invalid",\r\n        "inputs_to_native_arrays",\r\n    ),\r\n}\r\n',
        [(8, 9, 9, 35, _LACKS)],
    ),
    "async def": Shape(
        '@handle_partial_mixed_function\nasync def blend(x, y, /, *, out=None):\n    ...\n\n\nblend.mixed_backend_wrappers = {"to_add": ("inputs_to_native_arrays",)}\n',
        [(6, 44, 6, 70, _LACKS)],
    ),
    "comments in the tuple, no trailing comma": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {\n    "to_add": (  # c\n        "handle_backend_invalid",  # d\n        # e\n        "inputs_to_native_arrays"  # f\n    ),\n}\n',
        [(8, 9, 10, 34, _LACKS)],
    ),
    "blanks around the elements": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ( "a" , "b" , )}\n',
        [(6, 45, 6, 56, _LACKS)],
    ),
    "comma on the next line": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", "b"\n    , )}\n',
        [(6, 44, 7, 6, _LACKS)],
    ),
    "empty tuple": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ( )}\n',
        [(6, 45, 6, 45, _LACKS)],
    ),
    "empty tuple over two lines": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (\n)}\n',
        [(7, 1, 7, 1, _LACKS)],
    ),
    "double parentheses": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (("a",))}\n',
        [(6, 45, 6, 49, _LACKS)],
    ),
    "a list over several lines": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": [\n    "a",\n    "b",\n]}\n',
        [(6, 43, 9, 2, _LACKS)],
    ),
    "a set": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": {"a", "b"}}\n',
        [(6, 43, 6, 53, _LACKS)],
    ),
    "no to_add: the whole value": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {\n    "to_skip": ("é",),\n}\n',
        [(6, 32, 8, 2, _LACKS)],
    ),
    "dict(...)": Shape(
        _MIXED + "blend.mixed_backend_wrappers = dict(\n    to_add=['a'],\n    to_skip=['b'],\n)\n",
        [(7, 12, 7, 17, _LACKS)],
    ),
    "setattr": Shape(
        _MIXED + "setattr(blend, 'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [(6, 54, 6, 58, _LACKS)],
    ),
    "set twice, the last in force": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {"to_add": ("handle_out_argument",)}\nblend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [(7, 44, 7, 48, _LACKS)],
    ),
    "set twice, the last wraps": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {"to_add": ("a",)}\nblend.mixed_backend_wrappers = {"to_add": ("handle_out_argument",)}\n',
        [],
    ),
    "to_add lists handle_out_argument": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("handle_out_argument", "a")}\n',
        [],
    ),
    "wrapped by assignment": Shape(
        _MIXED
        + 'blend = handle_out_argument(blend)\nblend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
    ),
    "wrapped by assignment, skipped on the backend": Shape(
        _MIXED
        + 'blend = handle_out_argument(blend)\nblend.mixed_backend_wrappers = {"to_add": ("a",), "to_skip": ["handle_out_argument"]}\n',
        [(7, 44, 7, 48, _LACKS)],
    ),
    "wrapped by a decorator with arguments": Shape(
        '@ivy.handle_out_argument(1)\n@handle_partial_mixed_function\ndef blend(x, y, /, *, out=None):\n    ...\n\n\nblend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
    ),
    "no out": Shape(
        '@handle_partial_mixed_function\ndef blend(x, y, /):\n    ...\n\n\nblend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
    ),
    "every backend writes out": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
        files=_TORCH_USES_OUT,
    ),
    "one backend ignores out": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [
            (
                6,
                44,
                6,
                48,
                "`blend` takes `out`, but `to_add` of its `mixed_backend_wrappers` lacks `handle_out_argument`: on numpy, whose own implementation ignores `out`, nothing writes `out`; add it",
            )
        ],
        files={**_TORCH_USES_OUT, **_NUMPY_IGNORES_OUT},
    ),
    "a bare string to_skip, parenthesized": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a",), "to_skip": ("b")}\n',
        [
            (
                6,
                63,
                6,
                66,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("b",)`',
            )
        ],
    ),
    "a bare string on a function without out": Shape(
        "def gelu(x):\n    ...\n\n\ngelu.mixed_backend_wrappers = {'to_add': 'é'}\n",
        [
            (
                5,
                42,
                5,
                45,
                "`to_add` of `gelu.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `('é',)`",
            )
        ],
    ),
    "adjacent strings on one line": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": ("a" \'b\')}\n',
        [
            (
                6,
                45,
                6,
                52,
                "`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `(\"a\" 'b',)`",
            )
        ],
    ),
    "a bytes string": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": b"a"}\n',
        [
            (
                6,
                44,
                6,
                48,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `(b"a",)`',
            )
        ],
    ),
    "** in the dict": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a",), **more}\n',
        [],
    ),
    "a name for to_add": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": WRAPPERS}\n',
        [],
    ),
    "in a block: not read": Shape(
        _MIXED + 'if True:\n    blend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
    ),
    "adjacent strings over two lines": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": ("a"\n    "b")}\n',
        [
            (
                6,
                45,
                7,
                8,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a" "b",)`',
            )
        ],
    ),
    "an f-string": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": f"{x}"}\n',
        [(6, 32, 6, 51, _LACKS)],
    ),
    "adjacent strings as a key": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_" "add": ("a",)}\n',
        [(6, 32, 6, 53, _LACKS)],
    ),
    "a starred element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (*"ab",)}\n',
        [(6, 44, 6, 50, _LACKS)],
    ),
    "setattr with a keyword": Shape(
        _MIXED + "setattr(blend, 'mixed_backend_wrappers', value={'to_add': ('a',)})\n",
        [(6, 60, 6, 64, _LACKS)],
    ),
    "a parenthesized last element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", ("b"))}\n',
        [(6, 44, 6, 54, _LACKS)],
    ),
    "adjacent strings with a comment": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": ("a"  # c\n    "b")}\n',
        [
            (
                6,
                45,
                7,
                8,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a"  # c "b",)`',
            )
        ],
    ),
    "adjacent strings parenthesized twice": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": (("a" "b"))}\n',
        [
            (
                6,
                46,
                6,
                53,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a" "b",)`',
            )
        ],
    ),
    "triple-quoted over lines": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": """a\nb"""}\n',
        [
            (
                6,
                44,
                7,
                5,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("""a b""",)`',
            )
        ],
    ),
    "f-string to_skip alone": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": f"{x}", "to_add": ("a",)}\n',
        [(6, 63, 6, 67, _LACKS)],
    ),
    "f-string to_skip alone, wrapped": Shape(
        _WRAPPED + 'blend.mixed_backend_wrappers = {"to_skip": f"{x}", "to_add": ("a",)}\n',
        [],
    ),
    "f-string to_add alone": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": f"a"}\n',
        [],
    ),
    "f-string adjacent to a string": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_skip": "a" f"{x}"}\n',
        [
            (
                6,
                44,
                6,
                54,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a" f"{x}",)`',
            )
        ],
    ),
    "f-string adjacent over lines": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a"\n  f"{x}")}\n',
        [
            (
                6,
                44,
                7,
                9,
                '`to_add` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a" f"{x}",)`',
            )
        ],
    ),
    "adjacent strings as a key, bare value": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_" "skip": "a"}\n',
        [(6, 32, 6, 51, _LACKS)],
    ),
    "prefixed key": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {r"to_add": ("a",)}\n',
        [(6, 45, 6, 49, _LACKS)],
    ),
    "escaped key": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to\\x5fadd": ("a",)}\n',
        [(6, 47, 6, 51, _LACKS)],
    ),
    "triple-quoted key": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"""to_add""": ("a",)}\n',
        [(6, 48, 6, 52, _LACKS)],
    ),
    "prefixed key, bare": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {u"to_skip": "a"}\n',
        [
            (
                6,
                45,
                6,
                48,
                '`to_skip` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("a",)`',
            )
        ],
    ),
    "a starred out wrapper": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (*"handle_out_argument",)}\n',
        [],
    ),
    "a starred name": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (*X,)}\n',
        [],
    ),
    "a starred element in to_skip, wrapped": Shape(
        _WRAPPED
        + 'blend.mixed_backend_wrappers = {"to_add": ("a",), "to_skip": [*"handle_out_argument"]}\n',
        [(7, 44, 7, 48, _LACKS)],
    ),
    "a starred other in to_skip, wrapped": Shape(
        _WRAPPED + 'blend.mixed_backend_wrappers = {"to_add": ("a",), "to_skip": [*"b"]}\n',
        [],
    ),
    "an f-string element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", f"b")}\n',
        [],
    ),
    "an f-string element in to_skip, wrapped": Shape(
        _WRAPPED + 'blend.mixed_backend_wrappers = {"to_add": ("a",), "to_skip": ("b", f"c")}\n',
        [],
    ),
    "adjacent string elements": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("handle_out_" "argument",)}\n',
        [],
    ),
    "setattr all keywords": Shape(
        _MIXED + "setattr(obj=blend, name='mixed_backend_wrappers', value={'to_add': ('a',)})\n",
        [(6, 69, 6, 73, _LACKS)],
    ),
    "setattr starred value": Shape(
        _MIXED + "setattr(blend, 'mixed_backend_wrappers', *vals)\n",
        [],
    ),
    "setattr starred name": Shape(
        _MIXED + "setattr(blend, *'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [(6, 55, 6, 59, _LACKS)],
    ),
    "setattr starred two": Shape(
        _MIXED + "setattr(blend, *args)\n",
        [],
    ),
    "setattr double star": Shape(
        _MIXED + "setattr(blend, 'mixed_backend_wrappers', **kw)\n",
        [],
    ),
    "setattr adjacent name": Shape(
        _MIXED + "setattr(blend, 'mixed_backend_' 'wrappers', {'to_add': ('a',)})\n",
        [],
    ),
    "setattr prefixed name": Shape(
        _MIXED + "setattr(blend, r'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [(6, 55, 6, 59, _LACKS)],
    ),
    "setattr bytes name": Shape(
        _MIXED + "setattr(blend, b'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [],
    ),
    "setattr parenthesized name": Shape(
        _MIXED + "setattr(blend, ('mixed_backend_wrappers'), {'to_add': ('a',)})\n",
        [(6, 56, 6, 60, _LACKS)],
    ),
    "dict call with double star": Shape(
        _MIXED + "blend.mixed_backend_wrappers = dict(to_add=['a'], **more)\n",
        [],
    ),
    "dict call positional": Shape(
        _MIXED + "blend.mixed_backend_wrappers = dict({'to_add': ['a']})\n",
        [],
    ),
    "a parenthesized first element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (("a"), "b")}\n',
        [(6, 44, 6, 54, _LACKS)],
    ),
    "a parenthesized last element, comma": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", ("b"),)}\n',
        [(6, 44, 6, 55, _LACKS)],
    ),
    "a parenthesized last element, blanks": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", ( "b" ) )}\n',
        [(6, 44, 6, 56, _LACKS)],
    ),
    "a parenthesized last element, twice": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a", (("b")))}\n',
        [(6, 44, 6, 56, _LACKS)],
    ),
    "a parenthesized last element, over lines": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {"to_add": (\n    "a",\n    (\n        "b"  # c\n    )\n)}\n',
        [(7, 5, 10, 6, _LACKS)],
    ),
    "a parenthesized only element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (("b"),)}\n',
        [(6, 44, 6, 50, _LACKS)],
    ),
    "backslash in the tuple": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ( \\\n    "a",)}\n',
        [(7, 5, 7, 9, _LACKS)],
    ),
    "backslash before the comma": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a" \\\n , )}\n',
        [(6, 44, 7, 3, _LACKS)],
    ),
    "comment before the close": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a",  # c\n)}\n',
        [(6, 44, 6, 48, _LACKS)],
    ),
    "a list parenthesized": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (["a"])}\n',
        [(6, 44, 6, 49, _LACKS)],
    ),
    "tuple parenthesized twice, no comma": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ((\n"a", "b"\n))}\n',
        [(7, 1, 7, 9, _LACKS)],
    ),
    "a bare bytes": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": b"a"}\n',
        [
            (
                6,
                43,
                6,
                47,
                '`to_add` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `(b"a",)`',
            )
        ],
    ),
    "a bare string non-ascii": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("é")}  # ü\n',
        [
            (
                6,
                44,
                6,
                47,
                '`to_add` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `("é",)`',
            )
        ],
    ),
    "nested function same name": Shape(
        'def outer():\n    def blend(x, *, out=None):\n        ...\n\n\nblend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [],
    ),
    "semicolons": Shape(
        _MIXED
        + 'blend.mixed_backend_wrappers = {"to_add": ("handle_out_argument",)}; blend.mixed_backend_wrappers = {"to_add": ("a",)}\n',
        [(6, 113, 6, 117, _LACKS)],
    ),
    "annotated assignment": Shape(
        _MIXED + "blend.mixed_backend_wrappers: dict = {'to_add': ('a',)}\n",
        [],
    ),
    "chained assignment": Shape(
        _MIXED + "a = blend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "attribute of an attribute": Shape(
        _MIXED + "x.blend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "lambda function": Shape(
        "blend = lambda x, out=None: x\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "async out": Shape(
        "async def blend(x, *, out=None):\n    ...\n\n\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [(5, 44, 5, 48, _LACKS)],
    ),
    "out positional": Shape(
        "def blend(x, out=None):\n    ...\n\n\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [(5, 44, 5, 48, _LACKS)],
    ),
    "star out": Shape(
        "def blend(x, *out):\n    ...\n\n\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "kwargs only": Shape(
        "def blend(x, **out):\n    ...\n\n\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "wrapped by keyword assignment": Shape(
        _MIXED
        + "blend = handle_out_argument(fn=blend)\nblend.mixed_backend_wrappers = {'to_add': ('a',)}\n",
        [],
    ),
    "setattr on a builtins": Shape(
        _MIXED + "builtins.setattr(blend, 'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [],
    ),
    "setattr parenthesized callee": Shape(
        _MIXED + "(setattr)(blend, 'mixed_backend_wrappers', {'to_add': ('a',)})\n",
        [(6, 56, 6, 60, _LACKS)],
    ),
    "dict key None": Shape(
        _MIXED + "blend.mixed_backend_wrappers = {None: 1, 'to_add': ('a',)}\n",
        [(6, 53, 6, 57, _LACKS)],
    ),
    "dict key int": Shape(
        _MIXED + "blend.mixed_backend_wrappers = {1: 1, 'to_add': ('a',)}\n",
        [(6, 50, 6, 54, _LACKS)],
    ),
    "duplicate key": Shape(
        _MIXED
        + "blend.mixed_backend_wrappers = {'to_add': ('handle_out_argument',), 'to_add': ('a',)}\n",
        [(6, 80, 6, 84, _LACKS)],
    ),
    "to_skip bare string first": Shape(
        _MIXED + "blend.mixed_backend_wrappers = {'to_skip': 'x', 'to_add': 'y'}\n",
        [
            (
                6,
                59,
                6,
                62,
                "`to_add` of `blend.mixed_backend_wrappers` is a string, not a tuple, so membership is a substring test; add a trailing comma: `('y',)`",
            )
        ],
    ),
    "concatenated f-string element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("handle_out_argument" f"",)}\n',
        [],
    ),
    "concatenated f-string element, other": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": ("a" f"",)}\n',
        [],
    ),
    "bytes element": Shape(
        _MIXED + 'blend.mixed_backend_wrappers = {"to_add": (b"a",)}\n',
        [],
    ),
    "redefined function after": Shape(
        _MIXED + "blend.mixed_backend_wrappers = {'to_add': ('a',)}\n\n\ndef blend(x):\n    ...\n",
        [],
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_shape(name: str) -> None:
    shape = SHAPES[name]
    rule = all_rules()["IVY013"]
    found = _diagnostics(rule, Example(shape.source, path=API, files=shape.files))
    assert [(d.line, d.col, d.end_line, d.end_col, d.message) for d in found] == shape.found
    assert all(d.code == "IVY013" and d.fix is None for d in found)
