"""A setting removed as whole lines of text is removed as libcst removes it.

``rules/_site_removal.py`` cuts a ``support_native_out`` setting alone on its lines as
text (``_taken_lines``) where it knows which lines libcst's removal takes; elsewhere
libcst renders the removal. Each shape below is removed both ways (libcst's by declining
the text path) and the edits must be the same, including the shapes the text path must
leave to libcst (an indented comment above the setting, which a block before it keeps;
a ``;``; a backslash; a setting over several lines in a file with CRLF line breaks).
"""

from __future__ import annotations

import ast
import itertools

import pytest

from ivycheck.rules import _site_removal

SETTING = "tan.support_native_out = True"
BEFORE = (
    "x = 1\n",
    'x = "é"\n',
    "def f():\n    return 1\n",
    "def f(): return 1\n",
    "class A:\n    def g(self):\n        pass\n",
    "if a:\n  x\nelse:\n        y\n",
    "try:\n\tx\nexcept E:\n\ty\n",
)
BETWEEN = ("", "\n\n", "\n# c\n\n", "    # c\n", "\n  # c\n\n", "   \n", "\t# c\n")
SETTINGS = (
    SETTING + "\n",
    SETTING + "  # é\n",
    SETTING + ";\n",
    SETTING + "; y = 2\n",
    "tan.support_native_out = (\n    True\n)\n",
)
AFTER = ("", "\n\ny = 2\n", "    # tail\n")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_each_shape_is_removed_as_libcst_removes_it(
    newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = []
    for before, between, setting, after in itertools.product(BEFORE, BETWEEN, SETTINGS, AFTER):
        source = (before + between + setting + after).replace("\n", newline)
        tree = ast.parse(source)
        line = (before + between).count("\n") + 1
        statement = next(s for s in tree.body if s.lineno == line)
        key = ast.get_source_segment(source, statement)
        assert key is not None
        cases.append((source, tree, (line, 0, key, False)))
    as_text = [_site_removal.remove(source, tree, data) for source, tree, data in cases]
    taken = [_site_removal._taken_lines(s, t, d[0], d[2]) for s, t, d in cases]
    monkeypatch.setattr(_site_removal, "_taken_lines", lambda *_: None)
    by_libcst = [_site_removal.remove(source, tree, data) for source, tree, data in cases]
    assert sum(t is not None for t in taken) > len(cases) / 10  # the text path is taken
    different = [c[0] for c, a, b in zip(cases, as_text, by_libcst, strict=True) if a != b]
    assert different == []
