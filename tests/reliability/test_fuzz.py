"""Fuzzing the pure core: ``check_source`` and ``fix_source`` return, whatever the input.

Valid programs come from hypothesmith (generated from CPython's grammar); invalid ones are
real Ivy-style code mutated the ways files break in practice: truncated anywhere, bytes in
the wrong encoding, NUL bytes, a huge line, deep nesting. The engine may answer IVY000
(does not parse) or IVY999 (too deep to analyse), never an exception, and ``fix_source``
never produces text that does not parse. Modest example counts by default; ``slow`` runs
many more.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ivycheck.checker.base.sourcefile import SourceError, decode_source
from ivycheck.checker.core.engine import check_source, fix_source
from ivycheck.checker.project.config import Config
from tests.reliability.probe import PARTS, RULES

CONFIG = Config(root=Path("/project"))
IVY_PARTS = [p.format(name="fuzzed.py") for p in PARTS[1:]]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SEEDS = sorted(p.read_text(encoding="utf-8") for p in EXAMPLES.rglob("*.py"))

FAST = settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MANY = settings(FAST, max_examples=400, derandomize=False)


def _parses(text: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _engine_survives(text: str, relative: str) -> None:
    """Both entry points return; a fix never turns parsing code into non-parsing code."""
    found = check_source(text, path="fuzzed.py", config=CONFIG, rules=RULES, relative_path=relative)
    assert all(d.line >= 1 and d.col >= 1 for d in found)
    outcome = fix_source(
        text, path="fuzzed.py", config=CONFIG, rules=RULES, relative_path=relative, unsafe=True
    )
    if outcome.source != text and _parses(text):
        assert _parses(outcome.source)


def _valid_program_is_checked(source: str, part: int) -> None:
    found = check_source(
        source, path="fuzzed.py", config=CONFIG, rules=RULES, relative_path=IVY_PARTS[part]
    )
    assert not [d for d in found if d.code == "IVY999" and "deep" not in d.message], found
    _engine_survives(source, IVY_PARTS[part])


@FAST
@given(hypothesmith.from_grammar(), st.integers(0, len(IVY_PARTS) - 1))
def test_generated_programs(source: str, part: int) -> None:
    _valid_program_is_checked(source, part)


@FAST
@given(hypothesmith.from_node(), st.integers(0, len(IVY_PARTS) - 1))
def test_generated_syntax_trees(source: str, part: int) -> None:
    _valid_program_is_checked(source, part)


def _mutate(data: st.DataObject) -> str:
    """A real Ivy-style file, broken in one of the ways files break."""
    seed = data.draw(st.sampled_from(SEEDS))
    kind = data.draw(
        st.sampled_from(["truncate", "nul", "huge_line", "nesting", "splice", "bytes"])
    )
    if kind == "truncate":
        return seed[: data.draw(st.integers(0, len(seed)))]
    if kind == "nul":
        at = data.draw(st.integers(0, len(seed)))
        return seed[:at] + "\0" + seed[at:]
    if kind == "huge_line":
        # A megabyte on one line, flat: long chains (``x + x + ...``, ``'a' 'a' ...``) are
        # deep trees to libcst, see test_deep_nesting_*.
        at = seed.find("\n", data.draw(st.integers(0, len(seed)))) + 1
        line = data.draw(
            st.sampled_from(
                ["# " + "x" * 1_000_000, "s = '" + "a" * 1_000_000 + "'", "t = " + "1, " * 300_000]
            )
        )
        return seed[:at] + line + "\n" + seed[at:]
    if kind == "nesting":
        # As deep as CPython itself rejects: see test_deep_nesting_*.
        depth = data.draw(st.sampled_from([10, 100, 1_000, 100_000]))
        opener, closer = data.draw(st.sampled_from([("(", ")"), ("[", "]"), ("-", "")]))
        return seed + f"\nx = {opener * depth}1{closer * depth}\n"
    if kind == "splice":
        other = data.draw(st.sampled_from(SEEDS))
        at = data.draw(st.integers(0, len(seed)))
        cut = data.draw(st.integers(0, len(other)))
        return seed[:at] + other[cut:]
    # Bytes as another encoding would write them, decoded as a checker would: the text
    # that reaches the engine (or a clean SourceError before it).
    raw = seed.encode(data.draw(st.sampled_from(["utf-16", "utf-32", "latin-1", "cp1252"])))
    at = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.binary(max_size=16))
    try:
        return decode_source(raw[:at] + junk + raw[at:]).text
    except SourceError:
        return seed[:at]


@FAST
@given(st.data(), st.integers(0, len(IVY_PARTS) - 1))
def test_mutated_programs(data: st.DataObject, part: int) -> None:
    _engine_survives(_mutate(data), IVY_PARTS[part])


@FAST
@given(st.binary(max_size=2_000))
def test_arbitrary_bytes_decode_or_fail_cleanly(raw: bytes) -> None:
    try:
        text = decode_source(raw).text
    except SourceError:
        return
    _engine_survives(text, IVY_PARTS[0])


@pytest.mark.parametrize("depth", [10, 100, 1_000])
@pytest.mark.parametrize(
    "shape",
    [
        "x = {o}1{c}\n",
        "def f(x, /, *, out=None):\n    return np.add({o}x{c}, out=out)\n",
    ],
)
def test_nesting_within_libcsts_reach_is_checked(depth: int, shape: str) -> None:
    text = shape.format(o="(" * depth, c=")" * depth)
    for relative in IVY_PARTS[:2]:
        _engine_survives(text, relative)
    nested_ifs = "".join(" " * i + "if x:\n" for i in range(min(depth, 200))) + " " * 200 + "pass\n"
    _engine_survives(nested_ifs, IVY_PARTS[1])


def test_libcst_and_cpython_disagreements_are_ivy000() -> None:
    """Code CPython accepts that libcst's grammar might not: an IVY000, not a crash."""
    for text in ["match x:\n    case {**rest}: pass\n", "x = f'{a!r:>{w}}'\n", "type X = int\n"]:
        found = check_source(
            text, path="f.py", config=CONFIG, rules=RULES, relative_path=IVY_PARTS[0]
        )
        assert all(d.code != "IVY999" for d in found), found
        # (``type X = int`` is 3.12 syntax: libcst parses it, so on 3.11 it is checked, not
        # an IVY000; which interpreter's grammar counts is the engine's call.)
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError:
            assert [d.code for d in found] == ["IVY000"]


@pytest.mark.slow
@MANY
@given(hypothesmith.from_grammar(), st.integers(0, len(IVY_PARTS) - 1))
def test_generated_programs_many(source: str, part: int) -> None:
    _valid_program_is_checked(source, part)


@pytest.mark.slow
@MANY
@given(st.data(), st.integers(0, len(IVY_PARTS) - 1))
def test_mutated_programs_many(data: st.DataObject, part: int) -> None:
    _engine_survives(_mutate(data), IVY_PARTS[part])


DEEP = {
    "parens": "x = " + "(" * 100_000 + "1" + ")" * 100_000 + "\n",
    "brackets": "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "calls": "x = " + "f(" * 50_000 + ")" * 50_000 + "\n",
    "unclosed": "def f(x, /, *, out=None):\n    return np.add(" + "{" * 100_000 + "\n",
}
DEEP_SCRIPT = """
import sys
from pathlib import Path
from ivycheck.checker.project.config import Config
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
text = sys.stdin.read()
found = check_source(text, path="f.py", config=Config(root=Path("/p")),
                     rules=list(all_rules().values()), relative_path="ivy/functional/ivy/f.py")
print(",".join(d.code for d in found))
"""


@pytest.mark.parametrize("name", sorted(DEEP))
def test_deep_nesting_is_ivy000_in_process(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", DEEP_SCRIPT],
        input=DEEP[name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, f"the process died with status {done.returncode}"
    assert done.stdout.strip() == "IVY000"
