"""IVY007 and IVY012 decided on CPython's tree: the same findings as their libcst
checks (IVY014 and IVY018 decide in ``check()``: their examples pin their shapes).

Each variant is checked through the engine with fix edits (libcst decides) and without
(``find_on_ast`` decides); both must show the same diagnostics, and the ast answer must be
given, with as many findings as libcst reports. These rules read nothing CPython's
tree loses: their findings span a call or a keyword argument, which CPython places as
libcst does (parentheses of the callee or the value included), and IVY007's message shows
the value's text, read from the keyword's text after ``=``. So every shape is answered but
one, IVY007's value over several lines (libcst renders it without the block's
indentation), and the variants below put text where a byte column, a line break or a
comment would move a position or the shown text if the ast check read it wrong.

The rules look only at files whose text holds ``out=`` (IVY007, IVY012): a variant that
spells the keyword otherwise says so in a comment, as real code would elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example
from tests.rules.test_find_on_ast import _answer, _both, _shown

NP = "ivy/functional/backends/numpy/example.py"
JAX = "ivy/functional/backends/jax/example.py"
TF = "ivy/functional/backends/tensorflow/example.py"
ARRAY = "ivy/data_classes/array/elementwise.py"
MODEL = "project/model.py"
FRONTEND = "ivy/functional/frontends/torch/tensor.py"


@dataclass(frozen=True)
class Variant:
    source: str
    answered: int | None
    """How many findings the ast answer holds (libcst's count too), ``None`` where the ast
    check must not answer."""
    path: str
    found: int = 0
    """How many findings libcst reports where the ast check does not answer."""


def _v(source: str, answered: int | None, path: str, found: int = 0) -> Variant:
    return Variant(source, answered, path, found)


_SPELLED = "# the calls below pass out= spelled otherwise\n"


_METHOD = "class Array:\n    def add(self, x2, /):\n        return ivy.add(self, x2, out=self)\n"

IVY012: dict[str, Variant] = {
    "plain": _v(_METHOD, 1, ARRAY),
    "non-ASCII before": _v(_METHOD.replace("(self, x2, out", '(self, "é", x2, out'), 1, ARRAY),
    "tabs": _v(_METHOD.replace("    ", "\t"), 1, ARRAY),
    "crlf": _v(_METHOD.replace("\n", "\r\n"), 1, ARRAY),
    "async def": _v(_METHOD.replace("def add", "async def add"), 1, ARRAY),
    "in parentheses": _v(_METHOD.replace("out=self", "out=(self)"), 1, ARRAY),
    "over several lines": _v(
        _SPELLED
        + "class Array:\n    def add(self, x2):\n        return ivy.add(\n            self,\n"
        "            x2,\n            out  # ü\n            =self,\n        )\n",
        1,
        ARRAY,
    ),
    "imported under another name": _v(
        "from ivy import add as plus\n\n\nclass Array:\n    def add(self, x2):\n"
        "        return plus(self, x2, out=self)\n",
        1,
        ARRAY,
    ),
    "another instance name": _v(_METHOD.replace("self", "this"), 1, ARRAY),
    "static method": _v(_METHOD.replace("    def add", "    @staticmethod\n    def add"), 0, ARRAY),
    "mutator": _v(_METHOD.replace("return ivy.add", "ivy.add") + "        return self\n", 0, ARRAY),
    "in-place protocol": _v(_METHOD.replace("def add", "def __iadd__"), 0, ARRAY),
    "nested function": _v(
        "class Array:\n    def abs(self):\n        def go():\n            return ivy.abs(self, out=self)\n"
        "        return go()\n",
        1,
        ARRAY,
    ),
    "nested function rebinds": _v(
        "class Array:\n    def abs(self):\n        def go(self):\n            return ivy.abs(self, out=self)\n"
        "        return go(1)\n",
        0,
        ARRAY,
    ),
    "lambda": _v(
        "class C:\n    def sort(self):\n        return self.map(lambda v: ivy.sort(v), out=self)\n",
        1,
        "ivy/data_classes/container/sorting.py",
    ),
    "module-level function": _v(
        "def add(self, x2):\n    return ivy.add(self, x2, out=self)\n", 0, ARRAY
    ),
    "two": _v(
        _METHOD + "\n    def sub(self, x2):\n        return ivy.subtract(self, x2, out=self)\n",
        2,
        ARRAY,
    ),
}

_NATIVE = (
    "import ivy\nimport numpy as np\n\n\ndef f(x):\n    return ivy.add(x, x, out=np.zeros(3))\n"
)

IVY007: dict[str, Variant] = {
    "plain": _v(_NATIVE, 1, MODEL),
    "non-ASCII before": _v(_NATIVE.replace("(x, x,", '(x, "é€", x,'), 1, MODEL),
    "non-ASCII in the value": _v(_NATIVE.replace("np.zeros(3)", 'np.array("ü")'), 1, MODEL),
    "tabs": _v(_NATIVE.replace("    ", "\t"), 1, MODEL),
    "crlf": _v(_NATIVE.replace("\n", "\r\n"), 1, MODEL),
    "async def": _v(_NATIVE.replace("def f", "async def f"), 1, MODEL),
    "value in parentheses": _v(_NATIVE.replace("=np.zeros(3)", "=(np.zeros(3))"), 1, MODEL),
    "spaced": _v(_SPELLED + _NATIVE.replace("out=np.zeros(3)", "out = np.zeros(3) "), 1, MODEL),
    "over several lines, comments": _v(
        _SPELLED
        + _NATIVE.replace(
            "out=np.zeros(3)", "out  # é\n        =  # the buffer\n        np.zeros(3),\n    "
        ),
        1,
        MODEL,
    ),
    "value over several lines, in parentheses": _v(
        _NATIVE.replace("out=np.zeros(3)", "out=(\n        np.zeros(  # ü\n            3)\n    )"),
        None,
        MODEL,
        found=1,
    ),
    "value over several lines, crlf": _v(
        _NATIVE.replace(
            "out=np.zeros(3)", "out=(\n        np.zeros(\n            3)\n    )"
        ).replace("\n", "\r\n"),
        None,
        MODEL,
        found=1,
    ),
    "value over several lines at module level": _v(
        "import ivy\nimport numpy as np\nivy.add(x, x, out=np.zeros(\n    3,\n))\n",
        None,
        MODEL,
        found=1,
    ),
    "continuation": _v(_NATIVE.replace("out=np.zeros(3)", "out=\\\n        np.zeros(3)"), 1, MODEL),
    "data": _v("from ivy import add\n\n\ndef f(x):\n    return add(x, x, out=x.data)\n", 1, MODEL),
    "data, subscripted": _v("import ivy\nivy.add(x, x, out=x._data[0])\n", 1, MODEL),
    "data in a frontend": _v("import ivy\nivy.add(x, x, out=x.data)\n", 0, FRONTEND),
    "data of a module": _v(
        "import ivy\nimport numpy as np\nivy.add(x, x, out=np.data)\n", 0, MODEL
    ),
    "runtime alias, runtime native": _v(
        "import ivycheck.runtime as rt\nrt.abs(x, out=rt.to_numpy(x))\n", 1, MODEL
    ),
    "imported under another name": _v(
        "from ivy import add as plus\nfrom tensorflow import zeros as tz\n\nbuf = tz(3)\n"
        "plus(x, x, out=buf)\n",
        1,
        MODEL,
    ),
    "not the runtime": _v(
        "from mylib import add\nimport numpy as np\nadd(x, out=np.zeros(3))\n", 0, MODEL
    ),
    "local import shadows": _v(
        _NATIVE.replace("def f(x):\n", "def f(x):\n    import mylib as ivy\n"), 0, MODEL
    ),
    "parameter shadows the library": _v(_NATIVE.replace("def f(x)", "def f(x, np)"), 0, MODEL),
    "bound in the function": _v(
        "import ivy\nimport jax.numpy as jnp\n\n\ndef f(x):\n    buf = jnp.zeros(3)\n"
        "    return ivy.sin(x, out=buf)\n",
        1,
        MODEL,
    ),
    "bound in the enclosing function": _v(
        "import ivy\nimport jax.numpy as jnp\n\n\ndef f(x):\n    buf = jnp.zeros(3)\n\n"
        "    def g():\n        return ivy.sin(x, out=buf)\n\n    return g\n",
        1,
        MODEL,
    ),
    "rebound to an Array": _v(
        "import ivy\nimport numpy as np\n\n\ndef f(x):\n    buf = np.zeros(3)\n"
        "    buf = ivy.array(buf)\n    return ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "shadowed by the function": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\n\n\ndef f(x):\n"
        "    buf = ivy.zeros(3)\n    return ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "walrus": _v(
        "import ivy\nimport numpy as np\n\nif (buf := np.zeros(3)) is not None:\n"
        "    ivy.add(x, x, out=buf)\n",
        1,
        MODEL,
    ),
    "annotated": _v(
        "import ivy\nimport numpy as np\n\nbuf: T = np.zeros(3)\nivy.add(x, x, out=buf)\n", 1, MODEL
    ),
    "annotated without a value": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\nbuf: T\nivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "tuple target": _v(
        "import ivy\nimport numpy as np\n\nbuf, _ = np.zeros(3), 1\nivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "loop target": _v("import ivy\nfor buf in bufs:\n    ivy.add(x, x, out=buf)\n", 0, MODEL),
    "with target": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\nwith g() as buf:\n"
        "    ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "except target": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\ntry:\n    pass\n"
        "except E as buf:\n    ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "import alias": _v("import ivy\nimport numpy as buf\nivy.add(x, x, out=buf)\n", 0, MODEL),
    "match capture": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\nmatch v:\n    case buf:\n"
        "        ivy.add(x, x, out=buf)\n",
        1,
        MODEL,
    ),
    "global": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\n\n\ndef f(x):\n    global buf\n"
        "    return ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "class body is no scope": _v(
        "import ivy\nimport numpy as np\n\n\nclass A:\n    buf = np.zeros(3)\n\n"
        "    def m(self, x):\n        return ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "nested definition binds": _v(
        "import ivy\nimport numpy as np\n\nbuf = np.zeros(3)\n\n\ndef buf():\n    pass\n\n\n"
        "ivy.add(x, x, out=buf)\n",
        0,
        MODEL,
    ),
    "lambda": _v("import ivy\nf = lambda x: ivy.add(x, x, out=x.data)\n", 1, MODEL),
    "self-bound": _v("import ivy\nbuf = buf\nivy.add(x, x, out=buf)\n", 0, MODEL),
    "None": _v("import ivy\nivy.add(x, x, out=None)\n", 0, MODEL),
    "two": _v(_NATIVE + "\n\ndef g(x):\n    return ivy.tan(x, out=x.data)\n", 2, MODEL),
}

RULES = {"IVY007": IVY007, "IVY012": IVY012}


def _cases() -> list[object]:
    return [
        pytest.param(code, name, id=f"{code}-{name}")
        for code, variants in RULES.items()
        for name in variants
    ]


@pytest.mark.parametrize(("code", "name"), _cases())
def test_variants_agree_and_are_answered(code: str, name: str) -> None:
    variant = RULES[code][name]
    rule = all_rules()[code]
    example = Example(variant.source, path=variant.path)
    with_edits, without = _both(rule, example)
    assert _shown(without) == _shown(with_edits)
    expected = variant.found if variant.answered is None else variant.answered
    assert len([d for d in with_edits if d.code == code]) == expected
    answer = _answer(rule, example)
    if variant.answered is None:
        assert answer is None
    else:
        assert answer is not None
        assert len(answer) == variant.answered
