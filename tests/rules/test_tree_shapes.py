"""Shapes that CPython's tree and libcst's read differently (a one-line stub, adjacent
strings, a parenthesized tuple, a starred argument...): the rules read them on CPython's
tree as the user's code means them, the findings each shape must (or must not) get."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.rule import Example
from tests.rules.test_examples import CONFIG, RULES, _index


def _codes(code: str, example: Example) -> list[str]:
    """The codes the check finds in ``example`` with only ``code`` selected."""
    found = check_source(
        example.code,
        path=example.path,
        config=CONFIG.with_overrides(select=(code,)),
        rules=RULES,
        index=_index(example),
        relative_path=example.path,
    )
    return [d.code for d in found]


_API = "ivy/functional/ivy/example.py"
_NUMPY = "ivy/functional/backends/numpy/example.py"
_ARRAY = "ivy/data_classes/array/example.py"


def _case(code: str, text: str, path: str = _API, files: Mapping[str, str] | None = None) -> object:
    return pytest.param(code, Example(text, path=path, files=dict(files or {})), id=code)


@pytest.mark.parametrize(
    ("code", "example"),
    [
        # one line: libcst's ``_is_stub`` sees a ``SimpleStatementSuite``, no stub
        _case("IVY010", "def linear(x, w, *, out=None): ...\n"),
        # adjacent strings are no key to libcst: ``to_add`` is missing, nothing writes out
        _case(
            "IVY013",
            "def f(x, *, out=None):\n    return x\n\n\n"
            'f.mixed_backend_wrappers = {"to_" "add": ("handle_out_argument",)}\n',
        ),
        # a parenthesized tuple is one member to libcst, not two
        _case(
            "IVY009",
            "import ivy\nfrom typing import Union\n\n"
            "def f(x, *, out: Union[(ivy.Array, None)] = None):\n    return x\n",
        ),
        # a method that returns something new: not a mutator
        _case(
            "IVY012",
            "class Array:\n    def f(self, y):\n        return ivy.add(self, y, out=self).sum()\n",
            path=_ARRAY,
        ),
        # a wrapper applied by assignment with a starred argument still wraps for libcst
        _case(
            "IVY008",
            "def f(x, out=None):\n    return x\n\n\nf = handle_view(*f)\n",
            path=_ARRAY,
        ),
        # names resolved in the function's own scope: a local import of jax.numpy
        _case(
            "IVY004",
            "def tan(x, *, out=None):\n    import jax.numpy as np\n    return np.tan(x, out=out)\n",
            path=_NUMPY,
        ),
        _case(
            "IVY016",
            "def count(x, /, *, out=None):\n    return current_backend(x).count(x, out=out)\n",
            files={_NUMPY: "def count(x, /, *, out=None):\n    return np.sum(x)\n"},
        ),
        _case(
            "IVY018",
            "from ivy import inplace_update as iu, inplace_update\n\n"
            "def f(x):\n    inplace_update(x)\n",
            path=_NUMPY,
        ),
    ],
)
def test_found_where_the_two_trees_read_differently(code: str, example: Example) -> None:
    assert _codes(code, example) == [code]


@pytest.mark.parametrize(
    ("code", "example"),
    [
        # ``to_add`` plainly lists the out wrapper: nothing to report, whatever the backends
        _case(
            "IVY013",
            "def f(x, *, out=None):\n    return x\n\n\n"
            'f.mixed_backend_wrappers = {"to_add": ("handle_out_argument",), "to_skip": ()}\n',
        ),
        # imported from elsewhere: not the runtime's inplace_update
        _case(
            "IVY018",
            "from mylib import inplace_update\n\ndef f(x):\n    inplace_update(x)\n",
            path=_NUMPY,
        ),
        # the local name hides the module's numpy import: not judged
        _case(
            "IVY004",
            "import numpy as np\n\ndef tan(x, np, *, out=None):\n"
            "    return np.transpose(x, out=out)\n",
            path=_NUMPY,
        ),
        # ``return None`` is a name to libcst, a constant to CPython: a mutator to both
        _case(
            "IVY012",
            "class Array:\n    def f(self, y):\n        ivy.add(self, y, out=self)\n"
            "        return None\n",
            path=_ARRAY,
        ),
    ],
)
def test_nothing_found_where_the_two_trees_read_differently(code: str, example: Example) -> None:
    assert _codes(code, example) == []
