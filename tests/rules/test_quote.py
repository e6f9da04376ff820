"""Code quoted in a message stays on one line (``rules/_quote.py``)."""

from __future__ import annotations

from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.rules._quote import quoted
from tests.rules.test_examples import CONFIG


def test_one_line_code_is_quoted_as_written() -> None:
    assert quoted("Optional[ivy.Array]") == "Optional[ivy.Array]"
    assert quoted("  x  =  1  ") == "  x  =  1  "


def test_lines_are_joined_with_one_space() -> None:
    assert quoted("Union[a,  # c\n      b]") == "Union[a,  # c b]"
    assert quoted("f(\r\n    x,\r\n)") == "f( x, )"
    assert quoted("a\n\n   b") == "a b"


def test_a_multi_line_annotation_is_one_line_in_the_finding() -> None:
    source = (
        "from typing import Optional, Union\nimport ivy\n\n\n"
        "def tan(x, *, out: Optional[Union[ivy.Array,  # either\n"
        "                                  ivy.NativeArray]] = None):\n"
        "    ...\n"
    )
    path = "ivy/functional/ivy/elementwise.py"
    for edits in (True, False):
        (found,) = check_source(
            source,
            path=path,
            config=CONFIG.with_overrides(select=("IVY009",)),
            rules=list(all_rules().values()),
            relative_path=path,
            edits=edits,
        )
        assert "\n" not in found.message
        assert "`Optional[Union[ivy.Array,  # either ivy.NativeArray]]`" in found.message
