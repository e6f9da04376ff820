"""IVY002 (dead ``support_native_out``): where its fix is offered, and what removing a
setting leaves around it. The rule's examples pin messages, positions and fixed code; these
pin what examples cannot (a finding without a fix, the lines around a removed statement)."""

from __future__ import annotations

from typing import Any

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source, fix_source
from ivycheck.checker.core.rule import Example
from tests.rules.test_examples import CONFIG, RULES, _index

NP = "ivy/functional/backends/numpy/example.py"
CONFIG_002 = CONFIG.with_overrides(select=("IVY002",))

FUNCTIONS = (
    "import numpy as np\n\n\n"
    "def tan(x, /, *, out=None):\n    return np.tan(x)\n\n\n"
    "def sin(x, /, *, out=None):\n    return np.sin(x)\n"
)
"""Two functions that ignore the buffer: a setting on either is dead."""


def _project(source: str) -> dict[str, Any]:
    """How the engine checks ``source`` as a NumPy backend file of its own project."""
    example = Example(source, path=NP)
    index = _index(example)
    return {"path": NP, "config": CONFIG_002, "rules": RULES, "index": index, "relative_path": NP}


def _found(source: str) -> list[Diagnostic]:
    return check_source(source, **_project(source))


def _fixed(source: str) -> str:
    return fix_source(source, **_project(source)).source


@pytest.mark.parametrize(
    ("setting", "offered"),
    [
        ("tan.support_native_out = True\n", True),
        ("tan.support_native_out = sin.other = True\n", False),
        ("for fn in {tan, sin}:\n    fn.support_native_out = True\n", False),
        ("for fn in (tan, sin):\n    fn.support_native_out = True\n    fn.other = 1\n", False),
        ("for fn in (tan, sin):\n    fn.support_native_out = True; fn.other = 1\n", True),
        ("for fn in (tan,):\n    fn.support_native_out = True\n    fn.other = 1\n", True),
        ("for fn in (tan, sin):\n    fn.support_native_out = True; \\\n    fn.other = 1\n", True),
    ],
)
def test_a_fix_is_offered_only_where_it_removes_this_setting_alone(
    setting: str, offered: bool
) -> None:
    """Not from an assignment with other targets, from a set, or from a loop whose body
    does more than the one line (unless the loop names this function only: it goes)."""
    found = _found(FUNCTIONS + "\n\n" + setting)
    assert found and all(d.code == "IVY002" for d in found)
    assert all((d.fix is not None) is offered for d in found)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # the comment above a setting goes with it, as the blank lines do
            FUNCTIONS + "\n\n# a comment\ntan.support_native_out = True\n",
            FUNCTIONS,
        ),
        (  # two settings one below the other: both go, nothing is left between
            FUNCTIONS + "\n\ntan.support_native_out = True\nsin.support_native_out = True\n",
            FUNCTIONS,
        ),
        (  # the file's first statement: the blank lines after it stay with the next one
            "tan.support_native_out = True\n\n\ndef tan(x, *, out=None):\n    return 1\n",
            "\n\ndef tan(x, *, out=None):\n    return 1\n",
        ),
        (  # the file's header comments are the module's, not the setting's
            "# header\n\ntan.support_native_out = True\n\n\ndef tan(x, *, out=None):\n"
            "    return 1\n",
            "# header\n\n\n\ndef tan(x, *, out=None):\n    return 1\n",
        ),
        (  # one statement of a ';' line
            FUNCTIONS + "\n\ny = 1; tan.support_native_out = True ; z = 2\n",
            FUNCTIONS + "\n\ny = 1; z = 2\n",
        ),
        (  # one statement of a ';' line a backslash carries over two physical lines
            FUNCTIONS + "\n\ny = 1; \\\ntan.support_native_out = True\n",
            FUNCTIONS + "\n\ny = 1\n",
        ),
    ],
)
def test_removing_a_setting_leaves_what_removing_it_from_the_module_leaves(
    before: str, after: str
) -> None:
    assert _fixed(before) == after


@pytest.mark.parametrize("header", ["if HAS_OUT: \\\n", "try: \\\n", "if A:\n    pass\nelse: \\\n"])
def test_a_body_continued_from_its_header_holds_no_setting(header: str) -> None:
    """``if c: \\`` then the setting: a one-line body (as ``if c: setting`` is), which
    holds no site; the same setting on a line of its own in the block is one."""
    tail = "except ImportError:\n    pass\n" if header.startswith("try") else ""
    setting = "    tan.support_native_out = True\n"
    assert _found(FUNCTIONS + "\n\n" + header + setting + tail) == []
    assert _found(FUNCTIONS + "\n\n" + header.replace(" \\", "") + setting + tail) != []
