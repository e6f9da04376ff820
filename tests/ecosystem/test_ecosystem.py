"""The ecosystem check: ivycheck on the shared Ivy snapshots agrees with the reviewed findings.

The first test runs ``scripts/ecosystem_check.py`` as CI does (the real ivycheck command over
each of ``<repo>/../shared/corpora/ivy-975c8fc`` and ``ivy-9affbcc``); the others pin the comparison the script makes, on
small snapshots written here, so that a broken comparison cannot pass the first test silently.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import load_script

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "ecosystem_check.py"
CORPORA = REPO.parent / "shared" / "corpora"
SNAPSHOTS = sorted(Path(__file__).parent.glob("ivy-*.review.jsonl"))

STRICT = True
"""A ``false`` or ``missed`` entry fails the test like any other difference: since the issue-15
rule fixes the snapshot holds only ``true`` and documented ``judgement`` findings, and a rule
change that brings a false finding or a miss back cannot land by recording it."""


def _load_script() -> ModuleType:
    return load_script(SCRIPT, "ecosystem_check")


eco = _load_script()


@pytest.mark.parametrize("name", eco.CORPORA)
def test_ivycheck_on_each_ivy_corpus_matches_its_reviewed_snapshot(name: str) -> None:
    if not (CORPORA / name / "ivy").is_dir():
        pytest.fail(
            f"the shared Ivy corpus is missing: expected {CORPORA / name} (the `shared` folder "
            "beside the checkout, as CI provides it); the ecosystem check cannot run without it"
        )
    args = [sys.executable, str(SCRIPT), "--only", name, *(["--strict"] if STRICT else [])]
    proc = subprocess.run(args, capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}"
    assert proc.stdout.rstrip().endswith(": ok")


def test_every_corpus_has_a_review_and_every_review_a_corpus() -> None:
    assert [p.name for p in SNAPSHOTS] == sorted(f"{name}.review.jsonl" for name in eco.CORPORA)


def _entry(row: int, verdict: str, message: str | None = "m", code: str = "IVY001") -> Any:
    reason = "" if verdict == "unreviewed" else "why"
    return eco.Entry("ivy/a.py", row, 1, code, verdict, reason, message)


def _finding(row: int, message: str = "m", code: str = "IVY001") -> Any:
    return eco.Finding("ivy/a.py", row, 1, code, message)


def test_agreeing_run_has_no_difference_and_known_false_fail_only_when_strict() -> None:
    entries = [
        _entry(1, "true"),
        _entry(2, "judgement"),
        _entry(3, "false"),
        _entry(4, "missed", None),
    ]
    result = eco.compare(entries, [_finding(1), _finding(2), _finding(3)])
    assert result.agreed == 2
    assert result.differences() == 0
    assert [e.row for e in result.known_false] == [3]
    assert [e.row for e in result.known_missed] == [4]
    assert result.failures(strict=False) == 0
    assert result.failures(strict=True) == 2


def test_added_dropped_changed_and_unreviewed_findings_are_differences() -> None:
    entries = [_entry(1, "true"), _entry(2, "true"), _entry(3, "unreviewed")]
    findings = [_finding(1, message="new text"), _finding(3), _finding(9)]
    result = eco.compare(entries, findings)
    assert [f.row for f in result.added] == [9]
    assert [e.row for e in result.dropped] == [2]
    assert [(old.message, new.message) for old, new in result.changed] == [("m", "new text")]
    assert [e.row for e in result.unreviewed] == [3]
    assert result.failures(strict=False) == 4


def test_a_fixed_false_finding_and_a_found_miss_must_be_recorded() -> None:
    result = eco.compare([_entry(1, "false"), _entry(2, "missed", None)], [_finding(2)])
    assert [e.row for e in result.fixed_false] == [1]
    assert [e.row for e in result.found_missed] == [2]
    assert result.failures(strict=False) == 2


def test_update_keeps_verdicts_marks_new_findings_unreviewed_and_keeps_open_misses() -> None:
    entries = [
        _entry(1, "judgement"),
        _entry(2, "false"),
        _entry(3, "missed", None),
        _entry(4, "missed", None, code="IVY002"),
        _entry(5, "true"),
    ]
    findings = [_finding(1, message="reworded"), _finding(3, message="found"), _finding(7)]
    new = {(e.row, e.code): e for e in eco.updated(entries, findings)}
    assert sorted(new) == [(1, "IVY001"), (3, "IVY001"), (4, "IVY002"), (7, "IVY001")]
    assert (new[1, "IVY001"].verdict, new[1, "IVY001"].reason) == ("judgement", "why")
    assert new[1, "IVY001"].message == "reworded"
    assert (new[3, "IVY001"].verdict, new[3, "IVY001"].message) == ("true", "found")
    assert new[4, "IVY002"].verdict == "missed"
    assert (new[7, "IVY001"].verdict, new[7, "IVY001"].reason) == ("unreviewed", "")
    assert eco.compare(eco.updated(entries, findings), findings).differences() == 1  # row 7


def test_snapshot_round_trips_one_sorted_entry_per_line() -> None:
    entries = [_entry(10, "true"), _entry(2, "missed", None), _entry(2, "false", code="IVY000")]
    text = eco.render_snapshot(entries)
    assert [json.loads(line)["row"] for line in text.splitlines()] == [2, 2, 10]
    assert eco.parse_snapshot(text) == sorted(entries, key=lambda e: e.key)


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"verdict": "maybe"}, "verdict 'maybe'"),
        ({"reason": " "}, "needs a reason"),
        ({"message": "text", "verdict": "missed"}, "no message"),
        ({"row": 0}, "positive integers"),
    ],
)
def test_snapshot_rejects_malformed_entries(change: dict[str, object], error: str) -> None:
    raw = {"path": "ivy/a.py", "row": 1, "col": 1, "code": "IVY001"}
    raw |= {"verdict": "true", "reason": "why", "message": "m"} | change
    with pytest.raises(eco.SnapshotError, match=error):
        eco.parse_snapshot(json.dumps(raw) + "\n")


def test_snapshot_rejects_a_duplicate_finding() -> None:
    line = eco.render_snapshot([_entry(1, "true")])
    with pytest.raises(eco.SnapshotError, match="twice"):
        eco.parse_snapshot(line + line)


@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=[p.name for p in SNAPSHOTS])
def test_committed_snapshot_is_canonical_and_fully_reviewed(snapshot: Path) -> None:
    text = snapshot.read_text(encoding="utf-8")
    entries = eco.parse_snapshot(text)
    assert text == eco.render_snapshot(entries)
    assert not [e for e in entries if e.verdict == "unreviewed"]
    assert all(e.path.startswith("ivy/") for e in entries)
