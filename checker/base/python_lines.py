"""A text's lines as CPython's parser counts them, which is what every position a tree
gives (``lineno``, ``end_lineno``) refers to.

``str.splitlines`` also breaks at form feeds, vertical tabs, ``\\x1c``-``\\x1e``, NEL and
the Unicode line and paragraph separators, which CPython keeps inside a line; it is still
the fast way for the texts that hold none of them (nearly all), and a regular expression
splits the others.
"""

from __future__ import annotations

import re

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
"""A line as CPython's parser counts lines: up to and with ``\\r\\n``, ``\\r`` or ``\\n``."""

_OTHER_BREAKS = re.compile("[\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""What ``str.splitlines`` also breaks at: without any, it splits as :data:`_LINE` does,
in a fraction of the time."""


def python_lines(source: str) -> list[str]:
    """``source``'s lines as CPython counts them, each with its line ending."""
    if _OTHER_BREAKS.search(source) is None:
        return source.splitlines(keepends=True)
    return _LINE.findall(source)
