"""``summarize(..., memo=...)``, the language server's summary of a buffer at each
keystroke: the functions whose text is unchanged come from the memo, copied, and the result
is the summary made without it."""

from __future__ import annotations

import dataclasses
import textwrap

from ivycheck.checker.project.summary import FunctionMemo, FunctionSummary, _fresh_copy, summarize

BACKEND = "ivy/functional/backends/numpy/example.py"
SOURCE = textwrap.dedent(
    """\
    import numpy as np


    def tan(x, /, *, out=None):
        return np.tan(x, out=out)


    tan.support_native_out = True


    def cos(x, /, *, out=None):
        y = np.reshape(x, (2,))
        return np.cos(y, out=out)


    cos = handle_out_argument(cos)
    setattr(cos, "support_native_out", False)
    """
)


def _every_field_set() -> FunctionSummary:
    """A summary whose every field holds something other than its default."""
    values: dict[str, object] = {}
    for number, found in enumerate(dataclasses.fields(FunctionSummary)):
        if found.type in ("bool",):
            values[found.name] = True
        elif found.type == "int":
            values[found.name] = number
        elif found.type == "str":
            values[found.name] = f"name{number}"
        elif found.type.startswith("dict"):
            values[found.name] = {f"key{number}": f"value{number}"}
        else:
            values[found.name] = [f"item{number}"]
    return FunctionSummary(**values)  # type: ignore[arg-type]


def test_a_fresh_copy_is_the_summary_at_its_line_with_containers_of_its_own() -> None:
    original = _every_field_set()
    copy = _fresh_copy(original, 99)
    assert copy == dataclasses.replace(original, line=99)
    for found in dataclasses.fields(FunctionSummary):
        value = getattr(original, found.name)
        if isinstance(value, list | dict):
            assert getattr(copy, found.name) is not value, found.name


def test_a_summary_made_with_the_memo_is_the_one_made_without() -> None:
    memo: FunctionMemo = {}
    texts = [
        SOURCE,
        SOURCE.replace("(2,)", "(3,)"),  # cos edited
        "\n\n" + SOURCE,  # every function moved
        SOURCE.replace("tan.support_native_out = True", "tan.support_native_out = False"),
    ]
    for text in texts:
        with_memo = summarize(text, BACKEND, "backend:numpy", memo=memo)
        assert with_memo.functions == summarize(text, BACKEND, "backend:numpy").functions
    again = summarize(texts[-1], BACKEND, "backend:numpy", memo=memo)
    assert again.functions["tan"].attributes == {"support_native_out": "False"}
    assert again.functions["cos"].decorators == ["handle_out_argument"]
    assert again.functions["tan"].attributes is not with_memo.functions["tan"].attributes
