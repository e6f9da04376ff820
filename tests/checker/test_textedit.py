"""The smallest edit between two texts: exact, and as small as a character-by-character
scan would make it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ivycheck.checker.base.textedit import _common_ends, apply_edits, minimal_edit

texts = st.text(alphabet="ab\n\r é", max_size=40)


def _scanned(before: str, after: str) -> tuple[int, int]:
    """The obvious definition: common prefix, then the common suffix of what is left."""
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    return prefix, suffix


@given(texts, texts)
def test_common_ends_are_the_scanned_ones(before: str, after: str) -> None:
    assert _common_ends(before, after) == _scanned(before, after)


@given(texts, texts, texts)
def test_the_minimal_edit_turns_one_text_into_the_other(
    shared: str, before: str, after: str
) -> None:
    old, new = shared + before + shared, shared + after + shared
    edit = minimal_edit(old, new)
    if old == new:
        assert edit is None
        return
    assert edit is not None
    prefix, suffix = _scanned(old, new)
    assert len(edit.content) == len(new) - prefix - suffix
    assert apply_edits(old, [(edit,)]) == (new, 1)
