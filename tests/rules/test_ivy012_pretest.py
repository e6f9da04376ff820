"""IVY012's quick test before its walk (no ``out=`` names any function's first positional
parameter: nothing to report) must never hide a finding the walk makes.

The walk reports every ``out=<instance parameter>`` keyword of a call, a repeated one too
(CPython's parser keeps ``f(out=x, out=self)``; only compiling rejects it). A quick test
that read only each call's first ``out=`` reported that call's second keyword in a file
where another call also gave ``out=self``, and nothing in a file without one: a method's
finding must not depend on code elsewhere in the file.
"""

from __future__ import annotations

from ivycheck.checker.core.engine import check_source
from ivycheck.rules.ivy012_out_self import OutSelf
from tests.rules.test_examples import CONFIG

ARRAY = "ivy/data_classes/array/elementwise.py"

REPEATED = """\
class Array:
    def add(self, x, out=None):
        return f(x, out=x, out=self)
"""

ELSEWHERE = """
    def sub(self, x):
        return g(x, out=self)
"""


def _findings(source: str) -> list[tuple[int, int]]:
    found = check_source(source, path=ARRAY, config=CONFIG, rules=[OutSelf], fixes=False)
    return [(d.line, d.col) for d in found if d.code == OutSelf.CODE]


def test_repeated_out_self_reported_alone() -> None:
    assert _findings(REPEATED) == [(3, 28)]


def test_repeated_out_self_reported_beside_another() -> None:
    assert _findings(REPEATED + ELSEWHERE) == [(3, 28), (6, 21)]
