"""IVY011 decided on CPython's tree: the same findings as their
libcst checks.

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` may decide); both must show the same diagnostics. A variant with a count
must be answered on the ast with that many findings; one without (``None``) must be left
to libcst (the layout it reads is not read on CPython's tree there).
"""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.core.rule import Example
from tests.rules.test_find_on_ast import _agree

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
        1,
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
