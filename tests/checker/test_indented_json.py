"""The reports' indented JSON is :func:`json.dumps`'s, byte for byte."""

from __future__ import annotations

import enum
import json
import math
from collections import OrderedDict
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ivycheck.checker.frontends.indented_json import dumps_indented


class _Level(enum.StrEnum):
    HIGH = "high"


class _Count(enum.IntEnum):
    TWO = 2


class _Pair(NamedTuple):
    number: int
    text: str


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_values = st.recursive(
    _scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.tuples(children, children)
        | st.dictionaries(
            st.text() | st.integers() | st.booleans() | st.none(), children, max_size=4
        )
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_values)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2)


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        {"a": []},
        [{}],
        {1.5: 1, math.inf: 2, -math.inf: 3, math.nan: 4},
        {"é\u2028\x00": ["\ud800", "\U0001f600"]},
        [True, False, None, 10**30, -0.0, 1e300],
        {True: 1, "1": [1, True], 2: False},
        {_Level.HIGH: _Level.HIGH, "n": _Count.TWO, "t": _Pair(1, "a")},
        OrderedDict([("b", OrderedDict(a=(1, 2)))]),
    ],
)
def test_edge_values(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2)
    assert dumps_indented(value, indent=4) == json.dumps(value, indent=4)


def test_refuses_what_json_refuses() -> None:
    with pytest.raises(TypeError):
        dumps_indented({"a": object()})
    with pytest.raises(TypeError):
        dumps_indented({(1, 2): 1})
