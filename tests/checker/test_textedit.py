"""The smallest edit between two texts: exact, and as small as a character-by-character
scan would make it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from ivycheck.checker.base.diagnostics import Edit
from ivycheck.checker.base.textedit import LineIndex, _common_ends, apply_edits, minimal_edit

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


def _apply_one_by_one(text: str, edit_groups: list[tuple[Edit, ...]]) -> tuple[str, int]:
    """The plain reading of ``apply_edits``: each group tested against every range taken,
    then the spans replaced one by one from the last."""
    index = LineIndex(text)
    taken: list[tuple[int, int]] = []
    spans: list[tuple[int, int, str]] = []
    applied = 0
    for group in edit_groups:
        ranges = [
            (index.offset(e.line, e.col), index.offset(e.end_line, e.end_col), e.content)
            for e in group
        ]
        if any(
            (start < t_end and t_start < end) or start == t_start
            for start, end, _ in ranges
            for t_start, t_end in taken
        ):
            continue
        for start, end, content in ranges:
            taken.append((start, end))
            spans.append((start, end, content))
        applied += 1
    for start, end, content in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
        text = text[:start] + content + text[end:]
    return text, applied


def test_apply_edits_is_the_one_by_one_reading() -> None:
    """Neighbours-only overlap tests and one join give what testing every taken range and
    replacing span by span gives: random groups of insertions, deletions and replacements,
    overlapping, touching, at one point, within one group too."""
    chosen = random.Random(106)
    text = "".join(f"line {n} é\n" for n in range(12))
    index = LineIndex(text)
    for _ in range(3000):
        groups = []
        for _ in range(chosen.randint(0, 8)):
            group = []
            for _ in range(chosen.randint(1, 3)):
                start = chosen.randint(0, len(text))
                end = min(len(text), start + chosen.choice((0, 0, 1, 3, 9)))
                content = chosen.choice(("", "X", "YZ\n"))
                group.append(Edit(*index.position(start), *index.position(end), content))
            groups.append(tuple(group))
        assert apply_edits(text, groups) == _apply_one_by_one(text, groups), groups
