"""Shapes of IVY005's findings and fixes: where each finding starts and ends, what it says,
how severe it is, and the code the fix writes, through the engine as every front door
runs it.

The shapes vary what CPython's tree does not hold and the check reads from the text: the
``@`` before a decorator's expression (blanks, a ``\\`` continuation, the expression's own
parentheses over several lines), comments between decorators (the fix moves each
decorator with the comments above it), tabs, CRLF and non-ASCII text before a position;
and which pair of a long list is reported (the first whose order changes results). Lines
are 1-based and columns as the command prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ivycheck.checker.core.engine import fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from ivycheck.rules._wrapper_order import EXAMPLE_FALLBACK_WRAPPER as _FALLBACK
from tests.rules.test_examples import CONFIG, RULES, _diagnostics, _index

API = "ivy/functional/ivy/elementwise.py"

_FAILURE_ONLY = """
def handle_exceptions(fn):
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            raise RuntimeError(str(e))

    return _handle_exceptions
"""
"""A project's own ``handle_exceptions`` that acts only on failures."""


@dataclass(frozen=True)
class Shape:
    source: str
    found: list[tuple[int, int, int, int, str, str]]
    """(line, column, end line, end column, message, severity) of each finding."""
    fixed: str
    """The code ``--fix`` writes."""
    files: dict[str, str] = field(default_factory=dict)
    path: str = API


SHAPES: dict[str, Shape] = {
    "misordered": Shape(
        "@to_native_arrays_and_back\n@handle_out_argument\ndef tan(x, /, *, out=None):\n    ...\n",
        [
            (
                2,
                1,
                2,
                21,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, /, *, out=None):\n    ...\n",
    ),
    "in order": Shape(
        "@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, /, *, out=None):\n    ...\n",
        [],
        "@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, /, *, out=None):\n    ...\n",
    ),
    "blanks after the at": Shape(
        "@to_native_arrays_and_back\n@  handle_out_argument  # why\ndef tan(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                23,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@  handle_out_argument  # why\n@to_native_arrays_and_back\ndef tan(x):\n    ...\n",
    ),
    "decorator with arguments": Shape(
        "@handle_device\n@infer_dtype(1, key='x')\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                25,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype(1, key='x')\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "decorator on several lines": Shape(
        "@handle_device\n@ivy.infer_dtype(\n    1,\n    key='é',\n)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                5,
                2,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@ivy.infer_dtype(\n    1,\n    key='é',\n)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "non-ASCII in the decorator and before it": Shape(
        "# ünïcode\nx = 'é'\n@handle_device\n@infer_dtype('ä', 'ö')\ndef f(x):\n    ...\n",
        [
            (
                4,
                1,
                4,
                23,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "# ünïcode\nx = 'é'\n@infer_dtype('ä', 'ö')\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "non-ASCII name": Shape(
        "@handle_device\n@infer_dtype\ndef fé(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef fé(x):\n    ...\n",
    ),
    "tabs": Shape(
        "class A:\n\t@ivy.infer_dtype\n\t@ivy.handle_array_function\n\tdef m(self, x):\n\t\t...\n",
        [
            (
                3,
                2,
                3,
                28,
                "@handle_array_function must be above @infer_dtype (Ivy's decorator order)",
                "error",
            )
        ],
        "class A:\n\t@ivy.handle_array_function\n\t@ivy.infer_dtype\n\tdef m(self, x):\n\t\t...\n",
    ),
    "tab after the at": Shape(
        "@handle_device\n@\tinfer_dtype\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                14,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@\tinfer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "crlf": Shape(
        "@handle_device\r\n@infer_dtype(\r\n    1,\r\n)\r\ndef f(x):\r\n    ...\r\n",
        [
            (
                2,
                1,
                4,
                2,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype(\r\n    1,\r\n)\r\n@handle_device\r\ndef f(x):\r\n    ...\r\n",
    ),
    "async def": Shape(
        "@to_native_arrays_and_back\n@handle_out_argument\nasync def tan(x, *, out=None):\n    ...\n",
        [
            (
                2,
                1,
                2,
                21,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\nasync def tan(x, *, out=None):\n    ...\n",
    ),
    "comments between the decorators": Shape(
        "# the device goes last\n@handle_device\n# convert\n\n@inputs_to_ivy_arrays\ndef g(x):\n    ...\n",
        [
            (
                5,
                1,
                5,
                22,
                "@inputs_to_ivy_arrays must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "# the device goes last\n# convert\n\n@inputs_to_ivy_arrays\n@handle_device\ndef g(x):\n    ...\n",
    ),
    "unknown decorators in between": Shape(
        "@handle_device\n@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n@functools.cache\n@inputs_to_ivy_arrays\ndef g(x):\n    ...\n",
        [
            (
                4,
                1,
                4,
                22,
                "@inputs_to_ivy_arrays must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@inputs_to_ivy_arrays\n@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n@functools.cache\n@handle_device\ndef g(x):\n    ...\n",
    ),
    "two functions and a method": Shape(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n\n\n@handle_nestable\n@handle_exceptions\ndef g(x):\n    ...\n\n\nclass A:\n    @outputs_to_ivy_arrays\n    @handle_out_argument\n    def h(self):\n        ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            ),
            (
                8,
                1,
                8,
                19,
                "@handle_exceptions must be above @handle_nestable (Ivy's decorator order); in this order no result changes, only errors raised by @handle_nestable itself escape as they are instead of re-raised by @handle_exceptions as Ivy exceptions",
                "warning",
            ),
            (
                15,
                5,
                15,
                25,
                "@handle_out_argument must be above @outputs_to_ivy_arrays (Ivy's decorator order)",
                "error",
            ),
        ],
        "@infer_dtype\n@handle_device\ndef f(x):\n    ...\n\n\n@handle_exceptions\n@handle_nestable\ndef g(x):\n    ...\n\n\nclass A:\n    @handle_out_argument\n    @outputs_to_ivy_arrays\n    def h(self):\n        ...\n",
    ),
    "wrappers by assignment": Shape(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n\n\nf = handle_nestable(f)\nf = handle_exceptions(f)\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef f(x):\n    ...\n\n\nf = handle_nestable(f)\nf = handle_exceptions(f)\n",
    ),
    "warning: failure only": Shape(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                19,
                "@handle_exceptions must be above @handle_nestable (Ivy's decorator order); in this order no result changes, only errors raised by @handle_nestable itself escape as they are instead of re-raised by @handle_exceptions as Ivy exceptions",
                "warning",
            )
        ],
        "@handle_exceptions\n@handle_nestable\ndef f(x):\n    ...\n",
    ),
    "warning: the project's own wrapper": Shape(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                19,
                "@handle_exceptions must be above @handle_nestable (Ivy's decorator order); in this order no result changes, only errors raised by @handle_nestable itself escape as they are instead of re-raised by @handle_exceptions as Ivy exceptions",
                "warning",
            )
        ],
        "@handle_exceptions\n@handle_nestable\ndef f(x):\n    ...\n",
        files={"ivy/utils/exceptions.py": _FAILURE_ONLY},
    ),
    "error: the project's own wrapper falls back": Shape(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                19,
                "@handle_exceptions must be above @handle_nestable (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_exceptions\n@handle_nestable\ndef f(x):\n    ...\n",
        files={"ivy/utils/exceptions.py": _FALLBACK},
    ),
    "an error and a warning in one list": Shape(
        "@handle_nestable\n@handle_exceptions\n@to_native_arrays_and_back\n@handle_out_argument\ndef tan(x, *, out=None):\n    ...\n",
        [
            (
                4,
                1,
                4,
                21,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_exceptions\n@handle_nestable\n@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, *, out=None):\n    ...\n",
    ),
    "private helper, commuting": Shape(
        "@outputs_to_ivy_arrays\n@inputs_to_native_arrays\ndef _helper(x):\n    ...\n",
        [],
        "@outputs_to_ivy_arrays\n@inputs_to_native_arrays\ndef _helper(x):\n    ...\n",
    ),
    "public function, the same pair": Shape(
        "@outputs_to_ivy_arrays\n@inputs_to_native_arrays\ndef helper(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                25,
                "@inputs_to_native_arrays must be above @outputs_to_ivy_arrays (Ivy's decorator order)",
                "error",
            )
        ],
        "@inputs_to_native_arrays\n@outputs_to_ivy_arrays\ndef helper(x):\n    ...\n",
    ),
    "nested helper without annotations": Shape(
        "def if_else(c):\n    @to_native_arrays_and_back\n    @handle_array_like_without_promotion\n    def _if_else(c, **v):\n        ...\n",
        [],
        "def if_else(c):\n    @to_native_arrays_and_back\n    @handle_array_like_without_promotion\n    def _if_else(c, **v):\n        ...\n",
    ),
    "nested helper with an annotated **kwargs": Shape(
        "def if_else(c):\n    @to_native_arrays_and_back\n    @handle_array_like_without_promotion\n    def _if_else(c, **v: int):\n        ...\n",
        [
            (
                3,
                5,
                3,
                41,
                "@handle_array_like_without_promotion must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "def if_else(c):\n    @handle_array_like_without_promotion\n    @to_native_arrays_and_back\n    def _if_else(c, **v: int):\n        ...\n",
    ),
    "nested public helper, commuting": Shape(
        "def grad(f):\n    @outputs_to_ivy_arrays\n    @inputs_to_native_arrays\n    def inner(x):\n        ...\n",
        [],
        "def grad(f):\n    @outputs_to_ivy_arrays\n    @inputs_to_native_arrays\n    def inner(x):\n        ...\n",
    ),
    "method of a class in a function": Shape(
        "def outer():\n    class A:\n        @outputs_to_ivy_arrays\n        @inputs_to_native_arrays\n        def m(self):\n            ...\n",
        [],
        "def outer():\n    class A:\n        @outputs_to_ivy_arrays\n        @inputs_to_native_arrays\n        def m(self):\n            ...\n",
    ),
    "one-line def": Shape(
        "@handle_device\n@infer_dtype\ndef f(x): return x\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef f(x): return x\n",
    ),
    "no trailing newline": Shape(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef f(x):\n    ...",
    ),
    "backend file": Shape(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
        path="ivy/functional/backends/torch/elementwise.py",
    ),
    "parenthesized decorator": Shape(
        "@handle_device\n@(infer_dtype)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                15,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@(infer_dtype)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "at ending its line": Shape(
        "@handle_device\n@\\\ninfer_dtype\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                3,
                12,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@\\\ninfer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "suppressed": Shape(
        "@handle_device\n@infer_dtype  # noqa: IVY005\ndef f(x):\n    ...\n",
        [],
        "@handle_device\n@infer_dtype  # noqa: IVY005\ndef f(x):\n    ...\n",
    ),
    "parenthesized": Shape(
        "@handle_device\n@(infer_dtype)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                15,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@(infer_dtype)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "parenthesized blanks comment": Shape(
        "@handle_device\n@ ( infer_dtype )  # c\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                18,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@ ( infer_dtype )  # c\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "parenthesized over lines": Shape(
        "@handle_device\n@(\n    infer_dtype  # c\n)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                4,
                2,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@(\n    infer_dtype  # c\n)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "parenthesized twice over lines": Shape(
        "@handle_device\n@((  # a\n    ivy.infer_dtype)\n   # b\n )\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                5,
                3,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@((  # a\n    ivy.infer_dtype)\n   # b\n )\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "at blank backslash paren": Shape(
        "@handle_device\n@ \\\n  (infer_dtype)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                3,
                16,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@ \\\n  (infer_dtype)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "parenthesized callee call": Shape(
        "@handle_device\n@(ivy.infer_dtype)(1)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                22,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@(ivy.infer_dtype)(1)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "parenthesized call": Shape(
        "@handle_device\n@(infer_dtype(1))\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                18,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@(infer_dtype(1))\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "call over lines": Shape(
        "@handle_device\n@ivy.infer_dtype (\n 1)\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                3,
                4,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@ivy.infer_dtype (\n 1)\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "call of a call": Shape(
        "@handle_device\n@infer_dtype(1)(2)\ndef f(x):\n    ...\n",
        [],
        "@handle_device\n@infer_dtype(1)(2)\ndef f(x):\n    ...\n",
    ),
    "tab indented paren": Shape(
        "class A:\n\t@handle_device\n\t@\t(\tinfer_dtype\t)\n\tdef m(self):\n\t\t...\n",
        [
            (
                3,
                2,
                3,
                19,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "class A:\n\t@\t(\tinfer_dtype\t)\n\t@handle_device\n\tdef m(self):\n\t\t...\n",
    ),
    "non-ascii paren": Shape(
        "x = 'é'\n@handle_device\n@(infer_dtype('ä'))  # ü\ndef f(x):\n    ...\n",
        [
            (
                3,
                1,
                3,
                20,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "x = 'é'\n@(infer_dtype('ä'))  # ü\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "first one parenthesized": Shape(
        "@(handle_device)\n@infer_dtype\n@handle_array_function\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_array_function\n@infer_dtype\n@(handle_device)\ndef f(x):\n    ...\n",
    ),
    "blank lines between": Shape(
        "@handle_device\n\n\n@infer_dtype\ndef f(x):\n    ...\n",
        [
            (
                4,
                1,
                4,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "\n\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "three misplaced": Shape(
        "@handle_device\n@infer_dtype\n@handle_array_function\n@inputs_to_ivy_arrays\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@inputs_to_ivy_arrays\n@handle_array_function\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "same decorator twice": Shape(
        "@handle_device\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "alias interleaved": Shape(
        "@handle_out_argument\n@outputs_to_ivy_arrays\n@to_native_arrays_and_back\n@inputs_to_native_arrays\ndef f(x, *, out=None):\n    ...\n",
        [
            (
                4,
                1,
                4,
                25,
                "@inputs_to_native_arrays must be above @outputs_to_ivy_arrays (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\n@inputs_to_native_arrays\n@outputs_to_ivy_arrays\ndef f(x, *, out=None):\n    ...\n",
    ),
    "alias vs its span": Shape(
        "@to_native_arrays_and_back\n@handle_out_argument\n@inputs_to_native_arrays\ndef f(x, *, out=None):\n    ...\n",
        [
            (
                2,
                1,
                2,
                21,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\n@inputs_to_native_arrays\ndef f(x, *, out=None):\n    ...\n",
    ),
    "nested twice": Shape(
        "def a():\n    def b():\n        @handle_device\n        @infer_dtype\n        def c(x):\n            ...\n",
        [
            (
                4,
                9,
                4,
                21,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "def a():\n    def b():\n        @infer_dtype\n        @handle_device\n        def c(x):\n            ...\n",
    ),
    "lambda default not": Shape(
        "@handle_device\n@infer_dtype\ndef f(x=lambda: 1):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef f(x=lambda: 1):\n    ...\n",
    ),
    "decorated class": Shape(
        "@handle_device\n@infer_dtype\nclass C:\n    ...\n",
        [],
        "@handle_device\n@infer_dtype\nclass C:\n    ...\n",
    ),
    "async method": Shape(
        "class A:\n    @handle_device\n    @infer_dtype\n    async def m(self):\n        ...\n",
        [
            (
                3,
                5,
                3,
                17,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "class A:\n    @infer_dtype\n    @handle_device\n    async def m(self):\n        ...\n",
    ),
    "with comments kept": Shape(
        "@handle_device  # one\n# two\n@infer_dtype  # three\ndef f(x):\n    ...\n",
        [
            (
                3,
                1,
                3,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "# two\n@infer_dtype  # three\n@handle_device  # one\ndef f(x):\n    ...\n",
    ),
    "semicolon before": Shape(
        "x = 1; y = 2\n@handle_device\n@infer_dtype\ndef f(x):\n    ...\n",
        [
            (
                3,
                1,
                3,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "x = 1; y = 2\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "dunder": Shape(
        "@handle_device\n@infer_dtype\ndef __call__(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device\ndef __call__(x):\n    ...\n",
    ),
    "private annotated": Shape(
        "@to_native_arrays_and_back\n@handle_array_like_without_promotion\ndef _f(x: int):\n    ...\n",
        [
            (
                2,
                1,
                2,
                37,
                "@handle_array_like_without_promotion must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_array_like_without_promotion\n@to_native_arrays_and_back\ndef _f(x: int):\n    ...\n",
    ),
    "private vararg annotated": Shape(
        "@to_native_arrays_and_back\n@handle_array_like_without_promotion\ndef _f(*x: int):\n    ...\n",
        [
            (
                2,
                1,
                2,
                37,
                "@handle_array_like_without_promotion must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_array_like_without_promotion\n@to_native_arrays_and_back\ndef _f(*x: int):\n    ...\n",
    ),
    "private return annotated": Shape(
        "@to_native_arrays_and_back\n@handle_array_like_without_promotion\ndef _f(x) -> int:\n    ...\n",
        [],
        "@to_native_arrays_and_back\n@handle_array_like_without_promotion\ndef _f(x) -> int:\n    ...\n",
    ),
    "api functional compositional": Shape(
        "@to_native_arrays_and_back\n@handle_out_argument\ndef tan(x, /, *, out=None):\n    ...\n",
        [
            (
                2,
                1,
                2,
                21,
                "@handle_out_argument must be above @to_native_arrays_and_back (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, /, *, out=None):\n    ...\n",
    ),
    "first of two misplaced above": Shape(
        "@infer_dtype\n@handle_device\n@handle_nestable\ndef f(x):\n    ...\n",
        [
            (
                3,
                1,
                3,
                17,
                "@handle_nestable must be above @infer_dtype (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_nestable\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "changing after failure-only": Shape(
        "@handle_nestable\n@handle_exceptions\n@infer_dtype\n@handle_device\n@handle_nestable\ndef f(x):\n    ...\n",
        [
            (
                5,
                1,
                5,
                17,
                "@handle_nestable must be above @infer_dtype (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_exceptions\n@handle_nestable\n@handle_nestable\n@infer_dtype\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "failure-only twice": Shape(
        "@handle_nestable\n@handle_nans\n@handle_exceptions\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@handle_nans must be above @handle_nestable (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_nans\n@handle_exceptions\n@handle_nestable\ndef f(x):\n    ...\n",
    ),
    "alias and its parts": Shape(
        "@outputs_to_ivy_arrays\n@to_native_arrays_and_back\n@inputs_to_native_arrays\n@handle_out_argument\ndef f(x, *, out=None):\n    ...\n",
        [
            (
                3,
                1,
                3,
                25,
                "@inputs_to_native_arrays must be above @outputs_to_ivy_arrays (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_out_argument\n@to_native_arrays_and_back\n@inputs_to_native_arrays\n@outputs_to_ivy_arrays\ndef f(x, *, out=None):\n    ...\n",
    ),
    "device shifting alias": Shape(
        "@handle_device_shifting\n@infer_dtype\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device_shifting (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype\n@handle_device_shifting\ndef f(x):\n    ...\n",
    ),
    "unknown in between, fix": Shape(
        "@handle_device\n@functools.cache\n@infer_dtype\n@other\n@handle_nestable\ndef f(x):\n    ...\n",
        [
            (
                3,
                1,
                3,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_nestable\n@functools.cache\n@infer_dtype\n@other\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "many repeats": Shape(
        "@handle_device\n@infer_dtype\n@handle_device\n@infer_dtype\n@handle_nestable\n@handle_device\ndef f(x):\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@handle_nestable\n@infer_dtype\n@infer_dtype\n@handle_device\n@handle_device\n@handle_device\ndef f(x):\n    ...\n",
    ),
    "method and nested": Shape(
        "class A:\n    def m(self):\n        @handle_device\n        @infer_dtype\n        def g(x):\n            ...\n        return g\n",
        [
            (
                4,
                9,
                4,
                21,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "class A:\n    def m(self):\n        @infer_dtype\n        @handle_device\n        def g(x):\n            ...\n        return g\n",
    ),
    "decorator on same line comment": Shape(
        "@handle_device  # a\n@infer_dtype  # b\ndef f(x):  # c\n    ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            )
        ],
        "@infer_dtype  # b\n@handle_device  # a\ndef f(x):  # c\n    ...\n",
    ),
    "two functions, one line each": Shape(
        "@handle_device\n@infer_dtype\ndef f(x): ...\n@handle_device\n@infer_dtype\ndef g(x): ...\n",
        [
            (
                2,
                1,
                2,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            ),
            (
                5,
                1,
                5,
                13,
                "@infer_dtype must be above @handle_device (Ivy's decorator order)",
                "error",
            ),
        ],
        "@infer_dtype\n@handle_device\ndef f(x): ...\n@infer_dtype\n@handle_device\ndef g(x): ...\n",
    ),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_shape(name: str) -> None:
    shape = SHAPES[name]
    example = Example(shape.source, path=shape.path, files=shape.files)
    found = _diagnostics(all_rules()["IVY005"], example)
    shown = [(d.line, d.col, d.end_line, d.end_col, d.message, d.severity.value) for d in found]
    assert shown == shape.found
    assert all(d.code == "IVY005" and d.fix is not None for d in found)
    fixed = fix_source(
        example.code,
        path=shape.path,
        config=CONFIG.with_overrides(select=("IVY005",)),
        rules=RULES,
        index=_index(example),
        relative_path=shape.path,
    )
    assert fixed.source == shape.fixed
