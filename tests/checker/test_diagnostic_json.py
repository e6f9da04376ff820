"""The JSON report written field by field is ``json.dumps`` of the diagnostics' dicts."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix, FixSafety, Severity
from ivycheck.checker.frontends import diagnostic_json
from ivycheck.checker.frontends.reporters import format_json

_numbers = st.integers(min_value=-(2**70), max_value=2**70)
_edits = st.builds(Edit, _numbers, _numbers, _numbers, _numbers, st.text())
_fixes = st.builds(
    Fix,
    st.text(),
    st.sampled_from(FixSafety),
    st.tuples() | st.lists(_edits, max_size=3).map(tuple),
)
_diagnostics = st.builds(
    Diagnostic,
    path=st.text(st.characters(blacklist_categories=("Cs",))),
    line=_numbers,
    col=_numbers,
    end_line=_numbers,
    end_col=_numbers,
    code=st.text(),
    message=st.text(),
    severity=st.sampled_from(Severity),
    fix=st.none() | _fixes,
    category=st.text(),
)


def _reference(found: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in found], indent=2) + "\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(_diagnostics, max_size=4))
def test_same_text_as_json_dumps(found: list[Diagnostic]) -> None:
    assert format_json(found) == _reference(found)


class _Text(str):
    """A ``str`` subclass: the field-by-field writer leaves it to the generic way."""


def test_other_field_types_take_the_generic_way() -> None:
    plain = Diagnostic("m.py", 1, 2, 3, 4, "IVY001", "message")
    assert diagnostic_json.element(plain) is not None
    unusual = [
        Diagnostic("m.py", 1, 2, 3, 4, "IVY001", _Text("message")),
        Diagnostic("m.py", True, 2, 3, 4, "IVY001", "message"),
        Diagnostic(
            "m.py",
            1,
            2,
            3,
            4,
            "IVY001",
            "m",
            fix=Fix("f", FixSafety.SAFE, (Edit(1, 2, 3, 4, _Text("x")),)),
        ),
    ]
    for d in unusual:
        assert diagnostic_json.element(d) is None
    assert format_json(unusual) == _reference(unusual)


def test_a_lossy_name_keeps_its_bytes() -> None:
    found = [Diagnostic("caf\udce9.py", 1, 1, 1, 2, "IVY001", "message")]
    [written] = json.loads(format_json(found))
    assert written["filename"] == "caf\ufffd.py"
    assert written["filename_bytes"] == "Y2Fm6S5weQ=="


def test_no_findings() -> None:
    assert format_json([]) == "[]\n"
