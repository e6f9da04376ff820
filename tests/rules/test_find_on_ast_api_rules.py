"""IVY005 decided on CPython's tree: the same findings as their libcst
checks, or no answer.

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` may decide); both must show the same diagnostics. Where the ast check
reads the code as libcst does it must answer, with as many findings as libcst reports;
where it cannot tell (a span it cannot read from the text, a shape it leaves to libcst) it
must say ``None``, and libcst's answer must still agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from ivycheck.rules.ivy005_decorator_order import _FALLBACK_WRAPPER  # the rule's own example
from tests.rules.test_find_on_ast import _answer, _both, _shown

API = "ivy/functional/ivy/elementwise.py"


@dataclass(frozen=True)
class Variant:
    source: str
    answered: int | None
    """How many findings the ast answer holds, or ``None`` where it must not answer."""
    path: str = API
    files: dict[str, str] = field(default_factory=dict)


_FAILURE_ONLY_WRAPPER = """
def handle_exceptions(fn):
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            raise RuntimeError(str(e))

    return _handle_exceptions
"""


IVY005: dict[str, Variant] = {
    "misordered": Variant(
        "@to_native_arrays_and_back\n@handle_out_argument\ndef tan(x, /, *, out=None):\n    ...\n",
        1,
    ),
    "in order": Variant(
        "@handle_out_argument\n@to_native_arrays_and_back\ndef tan(x, /, *, out=None):\n    ...\n",
        0,
    ),
    "blanks after the at": Variant(
        "@to_native_arrays_and_back\n@  handle_out_argument  # why\ndef tan(x):\n    ...\n", 1
    ),
    "decorator with arguments": Variant(
        "@handle_device\n@infer_dtype(1, key='x')\ndef f(x):\n    ...\n",
        1,
    ),
    "decorator on several lines": Variant(
        "@handle_device\n@ivy.infer_dtype(\n    1,\n    key='é',\n)\ndef f(x):\n    ...\n",
        1,
    ),
    "non-ASCII in the decorator and before it": Variant(
        "# ünïcode\nx = 'é'\n@handle_device\n@infer_dtype('ä', 'ö')\ndef f(x):\n    ...\n",
        1,
    ),
    "non-ASCII name": Variant(
        "@handle_device\n@infer_dtype\ndef fé(x):\n    ...\n",
        1,
    ),
    "tabs": Variant(
        "class A:\n\t@ivy.infer_dtype\n\t@ivy.handle_array_function\n\tdef m(self, x):\n\t\t...\n",
        1,
    ),
    "tab after the at": Variant(
        "@handle_device\n@\tinfer_dtype\ndef f(x):\n    ...\n",
        1,
    ),
    "crlf": Variant(
        "@handle_device\r\n@infer_dtype(\r\n    1,\r\n)\r\ndef f(x):\r\n    ...\r\n",
        1,
    ),
    "async def": Variant(
        "@to_native_arrays_and_back\n@handle_out_argument\nasync def tan(x, *, out=None):\n"
        "    ...\n",
        1,
    ),
    "comments between the decorators": Variant(
        "# the device goes last\n@handle_device\n# convert\n\n@inputs_to_ivy_arrays\ndef g(x):\n"
        "    ...\n",
        1,
    ),
    "unknown decorators in between": Variant(
        "@handle_device\n@with_unsupported_dtypes({'2.0': ('float16',)}, backend_version)\n"
        "@functools.cache\n@inputs_to_ivy_arrays\ndef g(x):\n    ...\n",
        1,
    ),
    "two functions and a method": Variant(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n\n\n"
        "@handle_nestable\n@handle_exceptions\ndef g(x):\n    ...\n\n\n"
        "class A:\n    @outputs_to_ivy_arrays\n    @handle_out_argument\n    def h(self):\n"
        "        ...\n",
        3,
    ),
    "wrappers by assignment": Variant(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n\n\n"
        "f = handle_nestable(f)\nf = handle_exceptions(f)\n",
        1,
    ),
    "warning: failure only": Variant(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        1,
    ),
    "warning: the project's own wrapper": Variant(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        1,
        files={"ivy/utils/exceptions.py": _FAILURE_ONLY_WRAPPER},
    ),
    "error: the project's own wrapper falls back": Variant(
        "@handle_nestable\n@handle_exceptions\ndef f(x):\n    ...\n",
        1,
        files={"ivy/utils/exceptions.py": _FALLBACK_WRAPPER},
    ),
    "an error and a warning in one list": Variant(
        "@handle_nestable\n@handle_exceptions\n@to_native_arrays_and_back\n"
        "@handle_out_argument\ndef tan(x, *, out=None):\n    ...\n",
        1,
    ),
    "private helper, commuting": Variant(
        "@outputs_to_ivy_arrays\n@inputs_to_native_arrays\ndef _helper(x):\n    ...\n",
        0,
    ),
    "public function, the same pair": Variant(
        "@outputs_to_ivy_arrays\n@inputs_to_native_arrays\ndef helper(x):\n    ...\n",
        1,
    ),
    "nested helper without annotations": Variant(
        "def if_else(c):\n    @to_native_arrays_and_back\n"
        "    @handle_array_like_without_promotion\n    def _if_else(c, **v):\n        ...\n",
        0,
    ),
    "nested helper with an annotated **kwargs": Variant(
        "def if_else(c):\n    @to_native_arrays_and_back\n"
        "    @handle_array_like_without_promotion\n    def _if_else(c, **v: int):\n        ...\n",
        1,
    ),
    "nested public helper, commuting": Variant(
        "def grad(f):\n    @outputs_to_ivy_arrays\n    @inputs_to_native_arrays\n"
        "    def inner(x):\n        ...\n",
        0,
    ),
    "method of a class in a function": Variant(
        "def outer():\n    class A:\n        @outputs_to_ivy_arrays\n"
        "        @inputs_to_native_arrays\n        def m(self):\n            ...\n",
        0,
    ),
    "one-line def": Variant("@handle_device\n@infer_dtype\ndef f(x): return x\n", 1),
    "no trailing newline": Variant("@handle_device\n@infer_dtype\ndef f(x):\n    ...", 1),
    "backend file": Variant(
        "@handle_device\n@infer_dtype\ndef f(x):\n    ...\n",
        1,
        path="ivy/functional/backends/torch/elementwise.py",
    ),
    "parenthesized decorator": Variant(
        "@handle_device\n@(infer_dtype)\ndef f(x):\n    ...\n",
        None,
    ),
    "at ending its line": Variant(
        "@handle_device\n@\\\ninfer_dtype\ndef f(x):\n    ...\n",
        None,
    ),
    "suppressed": Variant(
        "@handle_device\n@infer_dtype  # noqa: IVY005\ndef f(x):\n    ...\n",
        1,
    ),
}

VARIANTS: dict[str, tuple[str, Variant]] = {
    **{f"IVY005 {name}": ("IVY005", variant) for name, variant in IVY005.items()},
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_variants_agree(name: str) -> None:
    code, variant = VARIANTS[name]
    rule = all_rules()[code]
    example = Example(variant.source, path=variant.path, files=variant.files)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    answer = _answer(rule, example)
    if variant.answered is None:
        assert answer is None
        return
    assert answer is not None
    assert len(answer) == variant.answered
    # As many as libcst reports (a suppressed finding is found, then not shown).
    suppressed = example.code.count(f"noqa: {code}")
    assert len(answer) == len([d for d in with_edits if d.code == code]) + suppressed
    assert all(d.fix is None or d.fix.edits == () for d in without)
