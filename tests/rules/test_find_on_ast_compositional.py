"""IVY011 and IVY006 decided on CPython's tree: the same findings as their
libcst checks.

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` may decide); both must show the same diagnostics. A variant with a count
must be answered on the ast with that many findings; one without (``None``) must be left
to libcst (the layout it reads is not read on CPython's tree there).
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from tests.rules.test_find_on_ast import _agree, _answer

API = "ivy/functional/ivy/layers.py"
NUMPY = "ivy/functional/backends/numpy/layers.py"
TORCH = "ivy/functional/backends/torch/layers.py"
DATA_CLASS = "ivy/data_classes/array/manipulation.py"


def _code(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# IVY011 ---------------------------------------------------------------------------------

_FLIP = "def flip(x, /, *, copy=None, axis=None, out=None):\n    return current_backend(x).flip(x, axis=axis, out=out)\n"
_NUMPY_FLIP = "import numpy as np\n\ndef flip(x, /, *, copy=None, axis=None, out=None):\n    return np.flip(x, axis)\n"
_TORCH_GET_ITEM = "def get_item(x, query, *, copy=None):\n    return x.__getitem__(query)\n"

IVY011: dict[str, tuple[str, dict[str, str], int | None]] = {
    "view": (_FLIP, {NUMPY: _NUMPY_FLIP}, 1),
    "view, non-ASCII name": (
        _FLIP.replace("flip", "flïp"),
        {NUMPY: _NUMPY_FLIP.replace("def flip", "def flïp")},
        1,
    ),
    "view, tabs": (_FLIP.replace("    ", "\t"), {NUMPY: _NUMPY_FLIP}, 1),
    "view, CRLF": (_FLIP.replace("\n", "\r\n"), {NUMPY: _NUMPY_FLIP}, 1),
    "view, async def": (_FLIP.replace("def flip", "async  def   flip"), {NUMPY: _NUMPY_FLIP}, 1),
    "view, decorators on several lines": (
        "@handle_exceptions(\n    'é',\n)\n@handle_nestable\n" + _FLIP,
        {NUMPY: _NUMPY_FLIP},
        1,
    ),
    "view wrapper": ("@handle_view\n" + _FLIP, {NUMPY: _NUMPY_FLIP}, 0),
    "view wrapper by assignment": (
        _FLIP + "\n\nflip = handle_view(flip)\n",
        {NUMPY: _NUMPY_FLIP},
        0,
    ),
    "name after a continuation": (
        _FLIP.replace("def flip", "def \\\n    flip"),
        {NUMPY: _NUMPY_FLIP},
        None,
    ),
    "get_item": (_TORCH_GET_ITEM, {TORCH: _TORCH_GET_ITEM}, 1),
    "only a copying backend": (_FLIP, {NUMPY: _NUMPY_FLIP.replace("axis)", "axis).copy()")}, 0),
}


@pytest.mark.parametrize("name", list(IVY011))
def test_ivy011(name: str) -> None:
    code, files, expected = IVY011[name]
    _agree(
        "IVY011",
        Example(code, path="ivy/functional/ivy/manipulation.py", files=_moved(files)),
        expected,
    )


def _moved(files: dict[str, str]) -> dict[str, str]:
    return {path.replace("layers", "manipulation"): text for path, text in files.items()}


# IVY006 ---------------------------------------------------------------------------------

_VIEW = "@handle_view\ndef flip(x, /, *, axis=None, out=None):\n    ...\n"
_METHOD = _code(
    """
    class Array:
        @handle_view
        def concat_from_sequence(self, /, input_sequence, *, axis=0, out=None):
            return ivy.concat_from_sequence([self._data] + input_sequence, axis=axis)
    """
)
_API_CONCAT = {
    "ivy/functional/ivy/manipulation.py": (
        "@handle_out_argument\ndef concat_from_sequence(input_sequence, /, *, axis=0, out=None):\n"
        "    return current_backend(input_sequence).concat_from_sequence(input_sequence)\n"
    )
}

IVY006: dict[str, tuple[str, str, dict[str, str], int | None]] = {
    "no copy": (_VIEW, API, {}, 1),
    "no copy, non-ASCII name": (_VIEW.replace("flip", "flïp"), API, {}, 1),
    "no copy, tabs": (
        _METHOD.replace("    ", "\t").replace("concat_from_sequence(self", "f(self"),
        DATA_CLASS,
        {},
        1,
    ),
    "no copy, CRLF": (_VIEW.replace("\n", "\r\n"), API, {}, 1),
    "no copy, async def": (_VIEW.replace("def flip", "async def flip"), API, {}, 1),
    "no copy, decorators on several lines": (
        "@handle_exceptions(\n    'é',\n)\n"
        + _VIEW.replace("@handle_view", "@ivy.handle_view(\n    1,\n)"),
        API,
        {},
        1,
    ),
    "copy": (_VIEW.replace("axis=None", "copy=None"), API, {}, 0),
    "positional-only copy": (_VIEW.replace("x, /", "x, copy, /"), API, {}, 1),
    "dunder": (_VIEW.replace("flip", "__getitem__"), API, {}, 0),
    "nested function": (
        "def outer():\n    " + _VIEW.replace("\n", "\n    ").rstrip(" "),
        API,
        {},
        1,
    ),
    "fresh result": (_METHOD, DATA_CLASS, _API_CONCAT, 1),
    "fresh result, CRLF": (_METHOD.replace("\n", "\r\n"), DATA_CLASS, _API_CONCAT, 1),
    "fresh result, non-ASCII before the return": (
        _METHOD.replace("axis=axis)", "axis=axis)  # é"),
        DATA_CLASS,
        _API_CONCAT,
        1,
    ),
    "fresh result, decorator on several lines": (
        _METHOD.replace("@handle_view", "@handle_view(\n        'é',\n    )"),
        DATA_CLASS,
        _API_CONCAT,
        1,
    ),
    "fresh result, decorator in its own parentheses": (
        _METHOD.replace("@handle_view", "@(handle_view)"),
        DATA_CLASS,
        _API_CONCAT,
        None,
    ),
    "fresh result, one-line body": (
        _METHOD.replace(":\n        return", ": return"),
        DATA_CLASS,
        _API_CONCAT,
        1,
    ),
    "fresh result, a nested function returning its argument": (
        _METHOD.replace(
            "        return ivy", "        def g(y):\n            return y\n\n        return ivy"
        ),
        DATA_CLASS,
        _API_CONCAT,
        1,
    ),
    "name after a continuation": (_VIEW.replace("def flip", "def \\\n    flip"), API, {}, None),
}


@pytest.mark.parametrize("name", list(IVY006))
def test_ivy006(name: str) -> None:
    code, path, files, expected = IVY006[name]
    _agree("IVY006", Example(code, path=path, files=files), expected)


def test_ivy006_fresh_result_is_reported_at_the_decorator() -> None:
    code, path, files, _ = IVY006["fresh result, decorator on several lines"]
    answer = _answer(all_rules()["IVY006"], Example(code, path=path, files=files))
    assert answer is not None
    ((line, column, end_line, end_column),) = [
        (a.line, a.column, a.end_line, a.end_column) for a in answer
    ]
    assert (line, column, end_line, end_column) == (2, 4, 4, 5)
    assert answer[0].fix_description is None
    code, path, files, _ = IVY006["fresh result, a nested function returning its argument"]
    answer = _answer(all_rules()["IVY006"], Example(code, path=path, files=files))
    assert answer is not None
    assert answer[0].fix_description is None
