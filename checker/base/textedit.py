"""Text edits: from a fixed module back to the smallest edit, and applying edits.

Rules express fixes as CST node replacements; everything downstream (``--fix``, ``--diff``,
JSON output, LSP quick fixes) needs plain text edits of the original source. The edit of
one fix is the span between the first and the last character that the replacement
changed, so unrelated formatting and comments are never touched.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable

from ivycheck.checker.base.diagnostics import Edit

_NEWLINE = re.compile("\n")


class LineIndex:
    """Converts between string offsets and 1-based (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0, *(match.end() for match in _NEWLINE.finditer(text))]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def offset(self, line: int, col: int) -> int:
        if line - 1 >= len(self.starts):
            return len(self.text)
        return min(self.starts[line - 1] + col - 1, len(self.text))


def _common_ends(before: str, after: str) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix after it (not overlapping).

    Found by bisecting on slice equality (compared in C) rather than character by
    character in Python, which cost a millisecond and a half per fix of a long function."""
    limit = min(len(before), len(after))
    prefix = _longest(limit, lambda n: before[:n] == after[:n])
    rest = limit - prefix
    suffix = _longest(rest, lambda n: before[len(before) - n :] == after[len(after) - n :])
    return prefix, suffix


def _longest(limit: int, holds: Callable[[int], bool]) -> int:
    """The largest ``n <= limit`` for which ``holds(n)``; ``holds`` is monotone (true up to
    some length, false beyond) and true for 0."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def minimal_edit(before: str, after: str) -> Edit | None:
    """The single smallest edit that turns ``before`` into ``after``; ``None`` if equal."""
    if before == after:
        return None
    prefix, suffix = _common_ends(before, after)
    index = LineIndex(before)
    line, col = index.position(prefix)
    end_line, end_col = index.position(len(before) - suffix)
    return Edit(line, col, end_line, end_col, after[prefix : len(after) - suffix])


def replacement_edit(
    before: str, start: int, end: int, content: str, index: LineIndex
) -> Edit | None:
    """``minimal_edit(before, before[:start] + content + before[end:])``, reading only the
    replaced range and as much of the text after it as the edit's common prefix runs into
    (``index`` indexes ``before``).

    Invariant: the work is bounded by the replaced range and the edit, never by the whole
    text: a file with one fix per function costs linear time, where building the fixed
    text and scanning it whole per fix was quadratic (a fix that only appends, as adding
    ``fn.support_native_out = True`` after a function does, always reaches the range's
    end). Exact because the two texts agree before ``start``: the common prefix is
    ``start`` plus that of the windows ``before[start:stop]`` and ``content +
    before[end:stop]``, unless it fills the shorter window with text left after ``stop``
    (then the window doubles); the common suffix, counted from the windows' ends, is the
    whole text's less the equal tail after ``stop``, and is capped by the same prefix.
    """
    if before[start:end] == content:
        return None
    margin = 64
    while True:
        stop = min(len(before), end + margin)
        old = before[start:stop]
        new = content + before[end:stop]
        prefix, suffix = _common_ends(old, new)
        if prefix < min(len(old), len(new)) or stop == len(before):
            break
        margin *= 2
    line, col = index.position(start + prefix)
    end_line, end_col = index.position(stop - suffix)
    return Edit(line, col, end_line, end_col, new[prefix : len(new) - suffix])


def apply_edits(text: str, edit_groups: Iterable[tuple[Edit, ...]]) -> tuple[str, int]:
    """Apply groups of edits (one group per fix) that do not overlap earlier groups.

    Returns the new text and how many groups were applied; a group that overlaps one
    already taken is left for the next round of the fix loop. The ranges taken are kept in
    order, so a group is tested against its neighbours only, and the text is joined once:
    a file with thousands of fixes costs time in proportion to them, not their square.
    """
    index = LineIndex(text)
    taken = _TakenRanges()
    spans: list[tuple[int, int, str]] = []
    applied = 0
    for group in edit_groups:
        ranges = [
            (index.offset(e.line, e.col), index.offset(e.end_line, e.end_col), e.content)
            for e in group
        ]
        if any(taken.overlaps(start, end) for start, end, _ in ranges):
            continue
        for start, end, content in ranges:
            taken.add(start, end)
            spans.append((start, end, content))
        applied += 1
    return _joined(text, spans), applied


def _joined(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each span's range replaced by its content, as replacing them one by one
    from the last (by start, then end; of equal ones, the last given first) gives it."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], spans[i][1], -i))
    pieces: list[str] = []
    position = 0
    for i in order:
        start, end, content = spans[i]
        if start < position:  # ranges of one group that overlap: replace one by one
            for start, end, content in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
                text = text[:start] + content + text[end:]
            return text
        pieces += (text[position:start], content)
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


class _TakenRanges:
    """Ranges already taken, in order of start: whether a new one overlaps any (or starts
    where one starts) asks only its neighbours while taken ranges do not overlap (groups
    are taken only when they overlap no earlier group; a group's own ranges may)."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._disjoint = True
        """False once one group's own ranges overlap: then every range is asked."""

    def overlaps(self, start: int, end: int) -> bool:
        starts, ends = self._starts, self._ends
        if not self._disjoint:
            return any(
                (start < t_end and t_start < end) or start == t_start
                for t_start, t_end in zip(starts, ends, strict=True)
            )
        at = bisect.bisect_left(starts, start)
        if at > 0 and start < ends[at - 1] and starts[at - 1] < end:
            return True
        while at < len(starts) and (starts[at] < end or starts[at] == start):
            if (start < ends[at] and starts[at] < end) or starts[at] == start:
                return True
            at += 1
        return False

    def add(self, start: int, end: int) -> None:
        if self._disjoint and self.overlaps(start, end):
            self._disjoint = False
        at = bisect.bisect_right(self._starts, start)
        self._starts.insert(at, start)
        self._ends.insert(at, end)
