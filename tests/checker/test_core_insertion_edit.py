"""``fix_render.insertion_edit``: the edit of a text with a piece put in at one place,
made without comparing the texts whole, is the one ``slice_edit`` computes from both."""

from __future__ import annotations

import itertools

import pytest

from ivycheck.checker.base.diagnostics import Edit
from ivycheck.checker.core.fix_render import insertion_edit, slice_edit

PIECES = ("", "\n", "\n\n", "a", "ab\n", "\nb", "a = 1\n", " \n\na")


@pytest.mark.parametrize("first", [1, 7])
def test_every_small_insertion_gives_the_edit_of_the_whole_texts(first: int) -> None:
    for head, inserted, tail in itertools.product(PIECES, repeat=3):
        expected = slice_edit(head + tail, head + inserted + tail, first)
        assert insertion_edit(head, inserted, tail, first) == expected, (head, inserted, tail)


def test_the_attribute_line_after_a_function() -> None:
    """IVY001's edit: two blank lines and the attribute line after the function, which
    before blank lines is, as the smallest edit, the attribute line and two blank lines
    after them."""
    head = "def tan(x, /, *, out=None):\n    return np.tan(x, out=out)\n"
    tail = "\n\ndef cos(x):\n    return x\n"
    edit = insertion_edit(head, "\n\ntan.support_native_out = True\n", tail, 10)
    assert edit == Edit(14, 1, 14, 1, "tan.support_native_out = True\n\n\n")
