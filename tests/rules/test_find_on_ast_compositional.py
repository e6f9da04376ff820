"""IVY010, IVY016, IVY011 and IVY006 decided on CPython's tree: the same findings as their
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


# IVY010 ---------------------------------------------------------------------------------

_WRAPPED = _code(
    """
    @handle_out_argument
    def linear(x, weight, /, *, bias=None, out=None):
        return ivy.add(ivy.matmul(x, weight), bias, out=out)
    """
)
_INTERMEDIATE = _code(
    """
    @handle_exceptions
    @handle_out_argument
    def geomspace(start, stop, num, /, *, base=10.0, out=None):
        exponents = ivy.linspace(start, stop, num, out=out)
        return base**exponents
    """
)
_DROPPED = _code(
    """
    def sinc(x, /, *, out=None):
        return ivy.divide(ivy.sin(x), x)
    """
)
_GUARDED = _code(
    """
    @handle_out_argument
    def sinc(x, /, *, out=None):
        ret = ivy.divide(ivy.sin(x), x)
        if ivy.exists(out):
            return ivy.inplace_update(out, ret)
        return ret
    """
)

IVY010: dict[str, tuple[str, int | None]] = {
    "wrapped, every return writes out": (_WRAPPED, 1),
    "wrapped, an intermediate writes out": (_INTERMEDIATE, 1),
    "wrapped, guarded": (_GUARDED, 1),
    "guard on the if's line": (
        _GUARDED.replace(":\n        return ivy.inplace_update", ": return ivy.inplace_update"),
        1,
    ),
    "guard's return after a semicolon": (
        _GUARDED.replace(
            "        return ivy.inplace_update", "        y = 1; return ivy.inplace_update"
        ),
        1,
    ),
    "guard with an elif": (
        _GUARDED.replace("        return ret", "    elif x:\n        return x\n    return ret"),
        1,
    ),
    "guard naming out as a keyword": (_GUARDED.replace("ivy.exists(out)", "check(out=1)"), 1),
    "inplace_update given out by keyword first": (
        _GUARDED.replace("inplace_update(out, ret)", "inplace_update(x=out, val=ret)"),
        1,
    ),
    "dropped out": (_DROPPED, 1),
    "dropped out, non-ASCII before it": (_DROPPED.replace("x, /", "x, ä='é', /"), 1),
    "dropped out, tabs": (_DROPPED.replace("    ", "\t"), 1),
    "dropped out, CRLF": (_DROPPED.replace("\n", "\r\n"), 1),
    "dropped out, async def": (_DROPPED.replace("def sinc", "async def sinc"), 1),
    "dropped out on its own line": (
        _DROPPED.replace("(x, /, *, out=None)", "(\n    x,\n    /,\n    *,\n    out=None,\n)"),
        1,
    ),
    "wrapped, CRLF": (_WRAPPED.replace("\n", "\r\n"), 1),
    "wrapped, tabs": (_INTERMEDIATE.replace("    ", "\t"), 1),
    "wrapped, async def": (_WRAPPED.replace("def linear", "async def linear"), 1),
    "wrapped, non-ASCII in the decorator": (
        _WRAPPED.replace("@handle_out_argument", "@ivy.handle_out_argument('é')"),
        1,
    ),
    "decorator on several lines": (
        _WRAPPED.replace("@handle_out_argument", "@handle_out_argument(\n    'é',\n    2,\n)"),
        1,
    ),
    "decorator after a blank at": (
        _WRAPPED.replace("@handle_out_argument", "@ handle_out_argument"),
        1,
    ),
    "decorator in its own parentheses": (
        _WRAPPED.replace("@handle_out_argument", "@(handle_out_argument)"),
        None,
    ),
    "wrapped by assignment": (
        _WRAPPED.replace("@handle_out_argument\n", "")
        + "\n\nlinear = handle_out_argument(linear)\n",
        1,
    ),
    "wrapped by assignment, non-ASCII name": (
        _WRAPPED.replace("@handle_out_argument\n", "").replace("linear", "linéar")
        + "\n\nlinéar = handle_out_argument(linéar)\n",
        1,
    ),
    "wrapped by assignment, name after a continuation": (
        _WRAPPED.replace("@handle_out_argument\ndef linear", "def \\\n    linear")
        + "\n\nlinear = handle_out_argument(linear)\n",
        None,
    ),
    "alias of out, wrapped": (
        _WRAPPED.replace("return ivy.add(", "o = out\n    return ivy.add(").replace(
            "out=out)", "out=o)"
        ),
        1,
    ),
    "alias of out, not wrapped": (
        _DROPPED.replace("return ivy.divide(", "o = out\n    return ivy.divide("),
        0,
    ),
    "one-line body, wrapped": (_WRAPPED.replace(":\n    return", ": return"), 1),
    "stub": (_code('def lstsq(a, b, /, *, out=None):\n    """Doc."""\n    raise E\n'), 0),
    "one-line stub": (_code("def lstsq(a, b, /, *, out=None): ...\n"), 1),
    "stub after a continuation": (_code("def lstsq(a, b, /, *, out=None): \\\n    ...\n"), None),
    "global out": (_DROPPED.replace("return ivy.divide", "global out\n    return ivy.divide"), 0),
    "import as out": (
        _DROPPED.replace("return ivy.divide", "import numpy as out\n    return ivy.divide"),
        0,
    ),
    "import of a module out.x": (
        _DROPPED.replace("return ivy.divide", "import out.x\n    return ivy.divide"),
        0,
    ),
    "import of a module x.out": (
        _DROPPED.replace("return ivy.divide", "import x.out\n    return ivy.divide"),
        1,
    ),
    "except as out": (
        _DROPPED.replace(
            "return ivy.divide(ivy.sin(x), x)",
            "try:\n        pass\n    except E as out:\n        pass\n    return x",
        ),
        0,
    ),
    "nested def out": (
        _DROPPED.replace("return ivy.divide", "def out():\n        pass\n\n    return ivy.divide"),
        0,
    ),
    "class keyword out": (
        _DROPPED.replace(
            "return ivy.divide", "class A(out=1):\n        pass\n\n    return ivy.divide"
        ),
        0,
    ),
    "match binding out": (
        _DROPPED.replace(
            "return ivy.divide(ivy.sin(x), x)",
            "match x:\n        case [*out]:\n            pass\n    return x",
        ),
        0,
    ),
    "keyword and attribute named out": (
        _DROPPED.replace("ivy.divide(ivy.sin(x), x)", "f(x.out, out=x)"),
        1,
    ),
    "nested function returning something else": (
        _WRAPPED.replace("return ivy.add(", "def g():\n        return 1\n\n    return ivy.add("),
        1,
    ),
    "mixed": (
        _WRAPPED.replace(
            "@handle_out_argument", "@handle_partial_mixed_function\n@handle_out_argument"
        ),
        0,
    ),
    "backend call": (_WRAPPED.replace("ivy.add(", "current_backend(x).add("), 0),
}


@pytest.mark.parametrize("name", list(IVY010))
def test_ivy010(name: str) -> None:
    code, expected = IVY010[name]
    _agree("IVY010", Example(code, path=API), expected)


def test_ivy010_advice_follows_the_returns() -> None:
    """The advice differs between these shapes; the ast reads them as libcst does."""
    adviced = {
        name: _answer(all_rules()["IVY010"], Example(IVY010[name][0], path=API))
        for name in ("wrapped, guarded", "guard on the if's line", "one-line body, wrapped")
    }
    messages = {name: found[0].message for name, found in adviced.items() if found}
    assert "removing the decorator instead" in messages["wrapped, guarded"]
    assert "keep the decorator" in messages["guard on the if's line"]
    assert "keep the decorator" in messages["one-line body, wrapped"]


# IVY016 ---------------------------------------------------------------------------------

_COUNT = _code(
    """
    @handle_nestable
    def count_nonzero(x, /, *, axis=None, out=None):
        return current_backend(x).count_nonzero(x, axis=axis, out=out)
    """
)
_NUMPY_COUNT = "def count_nonzero(x, /, *, axis=None, out=None):\n    return np.count_nonzero(x)\n"
_TORCH_COUNT = (
    "def count_nonzero(x, /, *, axis=None, out=None):\n    return torch.count(x, out=out)\n"
)

IVY016: dict[str, tuple[str, dict[str, str], int | None]] = {
    "dropped": (_COUNT, {NUMPY: _NUMPY_COUNT}, 1),
    "dropped, non-ASCII before out": (
        _COUNT.replace("axis=None", "axis='é'"),
        {NUMPY: _NUMPY_COUNT},
        1,
    ),
    "dropped, tabs": (_COUNT.replace("    ", "\t"), {NUMPY: _NUMPY_COUNT}, 1),
    "dropped, CRLF": (_COUNT.replace("\n", "\r\n"), {NUMPY: _NUMPY_COUNT}, 1),
    "dropped, async def": (
        _COUNT.replace("def count", "async def count"),
        {NUMPY: _NUMPY_COUNT},
        1,
    ),
    "dropped, decorators on several lines": (
        _COUNT.replace("@handle_nestable", "@handle_nestable(\n    1,\n)\n@handle_exceptions"),
        {NUMPY: _NUMPY_COUNT},
        1,
    ),
    "a backend writes out": (_COUNT, {NUMPY: _NUMPY_COUNT, TORCH: _TORCH_COUNT}, 0),
    "wrapped by assignment": (
        _COUNT + "\n\ncount_nonzero = handle_out_argument(count_nonzero)\n",
        {NUMPY: _NUMPY_COUNT},
        0,
    ),
    "alias of out read by the body": (
        _COUNT.replace("return current", "o = out\n    return current"),
        {NUMPY: _NUMPY_COUNT},
        0,
    ),
    "global out in the body": (
        _COUNT.replace("return current", "global out\n    return current"),
        {NUMPY: _NUMPY_COUNT},
        0,
    ),
    "out handed on by keyword to another backend function": (
        _COUNT.replace(".count_nonzero(x, axis", ".other(x, axis"),
        {NUMPY: _NUMPY_COUNT.replace("count_nonzero", "other")},
        1,
    ),
}


@pytest.mark.parametrize("name", list(IVY016))
def test_ivy016(name: str) -> None:
    code, files, expected = IVY016[name]
    _agree("IVY016", Example(code, path=API, files=files), expected)


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
