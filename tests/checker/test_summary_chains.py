"""The summary follows each returned value back to a parameter (``argument_chains``).

IVY011 decides from these chains whether a backend returns a view of its input, so a
chain must exist only when every step from a parameter to the returned value is a
call on it, an attribute of it or a basic subscript of it, through local names too.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from ivycheck.checker.project.summary import summarize


def chains(body: str, part: str = "backend:numpy") -> list[tuple[str, ...]]:
    source = "import numpy as np\nimport torch\n\n" + textwrap.dedent(body)
    return (
        summarize(source, "ivy/functional/backends/numpy/x.py", part).functions["f"].argument_chains
    )


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("def f(x):\n    return np.flip(x, 0)\n", [("numpy.flip",)]),
        (
            "def f(x, s):\n    return np.transpose(np.reshape(x, s))\n",
            [("numpy.reshape", "numpy.transpose")],
        ),
        ("def f(x, s):\n    y = x.reshape(s)\n    return y.T\n", [(".reshape()", ".T")]),
        ("def f(x):\n    return x[0, 1:, ..., None]\n", [("[]",)]),
        ("def f(x, i):\n    return x[i - 1 :]\n", [("[]",)]),
        (
            "def f(*, x):\n    return torch.transpose(input=x, dim0=0, dim1=1)\n",
            [("torch.transpose",)],
        ),
        ("def f(x):\n    y: object = np.flip(x)\n    return y\n", [("numpy.flip",)]),
        ("def f(x, y):\n    a, b = np.flip(x), y\n    return a\n", [("numpy.flip",)]),
        # a rebound parameter: the chain goes through what computed the new value
        (
            "def f(x):\n    x = np.cumprod(x)\n    return np.flip(x)\n",
            [("numpy.cumprod", "numpy.flip")],
        ),
        # a loop may run zero times
        (
            "def f(x):\n    for x in range(3):\n        pass\n    return np.flip(x)\n",
            [("numpy.flip",)],
        ),
    ],
)
def test_a_chain_of_links_from_a_parameter_is_recorded(
    body: str, expected: list[tuple[str, ...]]
) -> None:
    assert chains(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        # computed, then transposed: a new array
        "def f(x, w):\n    res = np.sum(x * w, 1)\n    return np.transpose(res)\n",
        # the argument itself: no link
        "def f(x):\n    return x\n",
        # a parameter rebound to a value from elsewhere no longer leads to the argument
        "def f(x1, x2):\n    x1, x2 = promote(x1, x2)\n    return np.transpose(x1)\n",
        "def f(x, p):\n    with open(p) as x:\n        return np.flip(x)\n",
        "def f(x):\n    x = np.cumprod(x)\n    del x\n    return np.flip(x)\n",
        # advanced indexing copies
        "def f(x, idx):\n    return np.transpose(x[idx])\n",
        # returns of a nested function are not this function's
        "def f(x):\n    def g():\n        return np.flip(x)\n    return g()\n",
        # a module-level name is not a parameter
        "def f(x):\n    return np.transpose(TABLE)\n",
    ],
)
def test_no_chain_when_the_value_does_not_come_from_a_parameter(body: str) -> None:
    assert chains(body) == []


def test_the_chain_before_the_rebinding_reaches_a_return_on_its_own_path() -> None:
    body = """
    def f(x, reverse):
        if reverse:
            x = np.cumprod(np.flip(x))
            return np.flip(x)
        return np.swapaxes(x, 0, 1)
    """
    assert chains(body) == [("numpy.flip", "numpy.cumprod", "numpy.flip"), ("numpy.swapaxes",)]


def test_paths_join_after_a_branch_and_a_loop() -> None:
    branch = """
    def f(x, copy):
        if copy:
            x = x.copy()
        return np.reshape(x, (2, 2))
    """
    assert sorted(chains(branch)) == [(".copy()", "numpy.reshape"), ("numpy.reshape",)]
    loop = """
    def f(x, n):
        y = x
        for _ in range(n):
            y = y.T
        return y[0]
    """
    assert sorted(chains(loop)) == [(".T", ".T", "[]"), (".T", "[]"), ("[]",)]


def test_only_backend_files_carry_chains() -> None:
    assert chains("def f(x):\n    return np.flip(x)\n", part="functional") == []


@pytest.mark.parametrize(
    "imports",
    [
        "if True:\n    pass\nelse:\n    import jax as np\n",
        "try:\n    import jax as np\nexcept ImportError:\n    pass\n",
        "try:\n    pass\nexcept ImportError:\n    pass\nfinally:\n    import jax as np\n",
        "with open(__file__):\n    import jax as np\n",
        "if True:\n    with open(__file__):\n        from jax import numpy as np\n",
    ],
    ids=["if-else", "try", "finally", "with", "with in if"],
)
def test_imports_in_module_level_blocks_qualify_the_chains(imports: str) -> None:
    """The module's imports are read through its ``if``/``try``/``with`` blocks (and only
    there: statements of no other kind are passed over), the last binding winning."""
    source = "import numpy as np\n" + imports + "\ndef f(x):\n    return np.flip(x)\n"
    found = summarize(source, "ivy/functional/backends/jax/x.py", "backend:jax")
    assert found.functions["f"].argument_chains[0][0] in ("jax.flip", "jax.numpy.flip")


def test_chains_are_public_facts() -> None:
    """A backend that stops returning a view must invalidate the API file's cached result."""
    path, part = "ivy/functional/backends/numpy/x.py", "backend:numpy"
    view = summarize("import numpy as np\n\ndef f(x):\n    return np.flip(x)\n", path, part)
    copy = summarize(
        "import numpy as np\n\ndef f(x):\n    y = np.sum(x)\n    return np.flip(y)\n", path, part
    )
    assert view.facts_digest() != copy.facts_digest()


def test_the_chains_of_one_return_come_in_the_same_order_in_every_process() -> None:
    """A summary is made in many processes (workers, the editor, later runs) and its facts
    digest keys cached results and IVY011's message lists the chains: several chains of
    one returned value must not come out in the order of a set, which changes with the
    string hash seed."""
    body = (
        "def f(x, y, c):\n"
        "    a = x.T if c else np.flip(y)\n"
        "    b = a if c else y.reshape(2)\n"
        "    return b[0] if c else x.ravel()\n"
    )
    script = (
        "from ivycheck.checker.project.summary import summarize\n"
        f"source = 'import numpy as np\\n' + {body!r}\n"
        "facts = summarize(source, 'ivy/functional/backends/numpy/x.py', 'backend:numpy')\n"
        "print(facts.functions['f'].argument_chains)\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(8)
    }
    assert len(seen) == 1
    assert seen.pop().count("),") >= 3
