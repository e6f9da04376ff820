"""Shapes of the functional-API rules' findings (IVY010, IVY011, IVY006, IVY017): how many
findings each shape gets, and where, through the engine as every front door runs it.

The shapes vary what CPython's tree does not hold and the check reads from the text: the
layout of a decorator, a name or a block (parentheses of a decorator's own, line
continuations, tabs, CRLF, non-ASCII text before a position), and the names CPython keeps
as strings (``global out``, ``import out.x``...) that a body may bind ``out`` with.
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from tests.rules.test_examples import _diagnostics

API = "ivy/functional/ivy/layers.py"
DATA_CLASS = "ivy/data_classes/array/manipulation.py"


def _code(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _found(code: str, example: Example) -> list[Diagnostic]:
    return [d for d in _diagnostics(all_rules()[code], example) if d.code == code]


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
    "guard ending with a loop": (
        _GUARDED.replace(
            "return ivy.inplace_update(out, ret)\n",
            "return ivy.inplace_update(out, ret)\n        for _ in x:\n            pass\n",
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
        1,
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
        1,
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
    "stub after a continuation": (_code("def lstsq(a, b, /, *, out=None): \\\n    ...\n"), 1),
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
    assert len(_found("IVY010", Example(code, path=API))) == expected


def test_ivy010_advice_follows_the_returns() -> None:
    """The advice differs between these shapes: an ``if`` is a guard only as an indented
    block whose last logical line returns what was written into ``out`` (not on the
    ``if``'s line, not with a loop after the return), and a body on the ``def``'s line is
    not read for returns."""
    messages = {
        name: _found("IVY010", Example(IVY010[name][0], path=API))[0].message
        for name in (
            "wrapped, guarded",
            "guard's return after a semicolon",
            "guard on the if's line",
            "guard ending with a loop",
            "one-line body, wrapped",
        )
    }
    assert "removing the decorator instead" in messages["wrapped, guarded"]
    assert "removing the decorator instead" in messages["guard's return after a semicolon"]
    assert "not every return writes" in messages["guard ending with a loop"]
    assert "not every return writes" in messages["guard on the if's line"]
    assert "not every return writes" in messages["one-line body, wrapped"]


def test_ivy010_spans_the_decorator_with_its_parentheses() -> None:
    """From the ``@`` to the decorator's own closing parenthesis (CPython's expression
    leaves the parentheses out), and the name alone after a continuation."""
    (found,) = _found("IVY010", Example(IVY010["decorator in its own parentheses"][0], path=API))
    assert (found.line, found.col, found.end_line, found.end_col) == (1, 1, 1, 23)
    code = IVY010["wrapped by assignment, name after a continuation"][0]
    (found,) = _found("IVY010", Example(code, path=API))
    assert (found.line, found.col, found.end_line, found.end_col) == (2, 5, 2, 11)


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
        1,
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
    "name after a continuation": (_VIEW.replace("def flip", "def \\\n    flip"), API, {}, 1),
}


@pytest.mark.parametrize("name", list(IVY006))
def test_ivy006(name: str) -> None:
    code, path, files, expected = IVY006[name]
    assert len(_found("IVY006", Example(code, path=path, files=files))) == expected


def test_ivy006_fresh_result_is_reported_at_the_decorator() -> None:
    """From the ``@`` to the decorator's end, without a fix: the result is no view."""
    for name, span in (
        ("fresh result, decorator on several lines", (2, 5, 4, 6)),
        ("fresh result, decorator in its own parentheses", (2, 5, 2, 19)),
    ):
        code, path, files, _ = IVY006[name]
        (found,) = _found("IVY006", Example(code, path=path, files=files))
        assert (found.line, found.col, found.end_line, found.end_col) == span, name
        assert found.fix is None
    code, path, files, _ = IVY006["fresh result, a nested function returning its argument"]
    (found,) = _found("IVY006", Example(code, path=path, files=files))
    assert found.fix is None


# IVY011 ---------------------------------------------------------------------------------

_MANIPULATION = "ivy/functional/ivy/manipulation.py"
_NUMPY_MANIPULATION = "ivy/functional/backends/numpy/manipulation.py"
_TORCH_MANIPULATION = "ivy/functional/backends/torch/manipulation.py"

_FLIP = "def flip(x, /, *, copy=None, axis=None, out=None):\n    return current_backend(x).flip(x, axis=axis, out=out)\n"
_NUMPY_FLIP = "import numpy as np\n\ndef flip(x, /, *, copy=None, axis=None, out=None):\n    return np.flip(x, axis)\n"
_TORCH_GET_ITEM = "def get_item(x, query, *, copy=None):\n    return x.__getitem__(query)\n"

IVY011: dict[str, tuple[str, dict[str, str], int]] = {
    "view": (_FLIP, {_NUMPY_MANIPULATION: _NUMPY_FLIP}, 1),
    "view, non-ASCII name": (
        _FLIP.replace("flip", "flïp"),
        {_NUMPY_MANIPULATION: _NUMPY_FLIP.replace("def flip", "def flïp")},
        1,
    ),
    "view, tabs": (_FLIP.replace("    ", "\t"), {_NUMPY_MANIPULATION: _NUMPY_FLIP}, 1),
    "view, CRLF": (_FLIP.replace("\n", "\r\n"), {_NUMPY_MANIPULATION: _NUMPY_FLIP}, 1),
    "view, async def": (
        _FLIP.replace("def flip", "async  def   flip"),
        {_NUMPY_MANIPULATION: _NUMPY_FLIP},
        1,
    ),
    "view, decorators on several lines": (
        "@handle_exceptions(\n    'é',\n)\n@handle_nestable\n" + _FLIP,
        {_NUMPY_MANIPULATION: _NUMPY_FLIP},
        1,
    ),
    "view wrapper": ("@handle_view\n" + _FLIP, {_NUMPY_MANIPULATION: _NUMPY_FLIP}, 0),
    "view wrapper by assignment": (
        _FLIP + "\n\nflip = handle_view(flip)\n",
        {_NUMPY_MANIPULATION: _NUMPY_FLIP},
        0,
    ),
    "name after a continuation": (
        _FLIP.replace("def flip", "def \\\n    flip"),
        {_NUMPY_MANIPULATION: _NUMPY_FLIP},
        1,
    ),
    "get_item": (_TORCH_GET_ITEM, {_TORCH_MANIPULATION: _TORCH_GET_ITEM}, 1),
    "only a copying backend": (
        _FLIP,
        {_NUMPY_MANIPULATION: _NUMPY_FLIP.replace("axis)", "axis).copy()")},
        0,
    ),
}


@pytest.mark.parametrize("name", list(IVY011))
def test_ivy011(name: str) -> None:
    code, files, expected = IVY011[name]
    assert len(_found("IVY011", Example(code, path=_MANIPULATION, files=files))) == expected


def test_ivy011_is_reported_at_the_name() -> None:
    """The name's own span, after ``async``, ``def`` and continuations, in code points."""
    for name, span in (
        ("view, non-ASCII name", (1, 5, 1, 9)),
        ("view, async def", (1, 14, 1, 18)),
        ("name after a continuation", (2, 5, 2, 9)),
    ):
        code, files, _ = IVY011[name]
        (found,) = _found("IVY011", Example(code, path=_MANIPULATION, files=files))
        assert (found.line, found.col, found.end_line, found.end_col) == span, name


# IVY017 ---------------------------------------------------------------------------------

_TWO_BACKENDS = {
    "ivy/functional/backends/numpy/elementwise.py": "def sin(x):\n    ...\n",
    "ivy/functional/backends/torch/elementwise.py": "def sin(x):\n    ...\n",
}
"""Two backends, each defining ``sin`` only."""

IVY017: dict[str, tuple[str, int, dict[str, str]]] = {
    "missing": (
        "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n",
        1,
        _TWO_BACKENDS,
    ),
    "defined": ("def sin(x):\n    return current_backend(x).sin(x)\n", 0, _TWO_BACKENDS),
    "no backend in the run": ("def tan(x):\n    return current_backend(x).tan(x)\n", 0, {}),
    "non-ASCII before, and in the name": (
        "def tän(x):\n    y = 'é'; return current_backend(x, 'ü').tän(x)\n",
        1,
        _TWO_BACKENDS,
    ),
    "tabs": ("def tan(x):\n\treturn\tcurrent_backend(x)\t.tan(x)\n", 1, _TWO_BACKENDS),
    "crlf, across lines": (
        "def tan(x):\r\n    return (\r\n        current_backend(x)\r\n        .tan(x)\r\n    )\r\n",
        1,
        _TWO_BACKENDS,
    ),
    "async def": (
        "async def tan(x):\n    return await current_backend(x).tan(x)\n",
        1,
        _TWO_BACKENDS,
    ),
    "parenthesized callee": (
        "def tan(x):\n    return ((current_backend(x)) ).tan(x) + (current_backend().cos)(x)\n",
        2,
        _TWO_BACKENDS,
    ),
    "qualified, two on a line": (
        "import ivy\n\n\ndef tan(x):\n    return ivy.current_backend(x).tan(x), "
        "ivy.current_backend(x).sin(x), ivy.current_backend(x).tan(x)\n",
        2,
        _TWO_BACKENDS,
    ),
    "in a decorator with arguments, over several lines": (
        "@with_unsupported_dtypes(\n    current_backend().tan_dtypes(),\n    backend_version,\n)\n"
        "@handle_out_argument\ndef tan(x):\n    ...\n",
        1,
        _TWO_BACKENDS,
    ),
    "wrapped by assignment, in a default and an f-string": (
        "def tan(x, f=lambda y: current_backend().tan(y)):\n"
        "    return f'{current_backend(x).tan(x)}'\n\n\ntan = handle_out_argument(tan)\n",
        2,
        _TWO_BACKENDS,
    ),
    "in a method": (
        "class A:\n    def tan(self, x):\n        return current_backend(x).tan(x)\n",
        1,
        _TWO_BACKENDS,
    ),
}


@pytest.mark.parametrize("name", list(IVY017))
def test_ivy017(name: str) -> None:
    code, expected, files = IVY017[name]
    example = Example(code, path="ivy/functional/ivy/elementwise.py", files=files)
    assert len(_found("IVY017", example)) == expected


def test_ivy017_spans_the_callee_with_its_parentheses() -> None:
    """From the callee's start (its own parentheses included) to the name's end, across
    lines: CPython's ``Attribute``."""
    for name, spans in (
        ("crlf, across lines", [(3, 9, 4, 13)]),
        ("parenthesized callee", [(2, 12, 2, 39), (2, 46, 2, 67)]),
        ("non-ASCII before, and in the name", [(2, 21, 2, 48)]),
    ):
        code, _, files = IVY017[name]
        example = Example(code, path="ivy/functional/ivy/elementwise.py", files=files)
        found = [(d.line, d.col, d.end_line, d.end_col) for d in _found("IVY017", example)]
        assert found == spans, name
