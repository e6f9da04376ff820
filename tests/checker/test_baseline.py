"""Baselines: findings identified without line numbers; moved ones match, fixed ones drop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.run.baseline import (
    BaselineError,
    apply_baseline,
    identify,
    in_scope,
    load_baseline,
    rows,
    write_baseline,
)

SOURCE = """\
def f(x, out=None):
    return np.tan(x)

def g(x, out=None):
    return np.tan(x)
"""


def _found(path: str, line: int, code: str = "IVY001") -> Diagnostic:
    return Diagnostic(path, line, 5, line, 9, code, f"message at {line}")


def _reader(texts: dict[str, str]):  # type: ignore[no-untyped-def]
    return texts.get


def test_identity_ignores_line_numbers_but_not_function_or_text(tmp_path: Path) -> None:
    path = str(tmp_path / "a.py")
    before = identify([_found(path, 2), _found(path, 5)], tmp_path, _reader({path: SOURCE}))
    moved = "import numpy as np\n\n" + SOURCE
    after = identify([_found(path, 4), _found(path, 7)], tmp_path, _reader({path: moved}))
    assert [e for _, e in before] == [e for _, e in after]
    assert before[0][1].path == "a.py"
    # Same text, different function: different fingerprints.
    assert before[0][1].fingerprint != before[1][1].fingerprint


def test_identical_findings_are_told_apart_by_occurrence(tmp_path: Path) -> None:
    path = str(tmp_path / "a.py")
    text = "def f(x):\n    a = np.tan(x)\n    a = np.tan(x)\n"
    entries = [
        e for _, e in identify([_found(path, 3), _found(path, 2)], tmp_path, _reader({path: text}))
    ]
    assert [e.occurrence for e in entries] == [0, 1]
    assert entries[0].fingerprint == entries[1].fingerprint


def test_write_load_and_apply(tmp_path: Path) -> None:
    path = str(tmp_path / "a.py")
    read = _reader({path: SOURCE})
    baseline = tmp_path / "baseline.json"
    assert (
        write_baseline(baseline, rows(identify([_found(path, 5), _found(path, 2)], tmp_path, read)))
        == 2
    )
    document = json.loads(baseline.read_text())
    keys = [(r["path"], r["code"], r["fingerprint"], r["occurrence"]) for r in document["findings"]]
    assert keys == sorted(keys)
    assert {r["message"] for r in document["findings"]} == {"message at 2", "message at 5"}
    entries = load_baseline(baseline)
    # g's finding was fixed; a new one appears in f on another line.
    text = SOURCE.replace(
        "    return np.tan(x)\n\ndef g", "    y = np.sin(x)\n    return np.tan(x)\n\ndef g"
    )
    text = text.replace(
        "def g(x, out=None):\n    return np.tan(x)\n",
        "def g(x, out=None):\n    return np.tan(x, out=out)\n",
    )
    now = identify([_found(path, 2), _found(path, 3)], tmp_path, _reader({path: text}))
    filtered = apply_baseline(entries, now, in_scope([tmp_path], tmp_path))
    assert [d.line for d in filtered.new] == [2]
    assert filtered.fixed == 1
    assert len(filtered.known) == 1


def test_entries_of_files_outside_the_run_are_kept_not_fixed(tmp_path: Path) -> None:
    path = str(tmp_path / "sub" / "a.py")
    entries = rows(identify([_found(path, 2)], tmp_path, _reader({path: SOURCE})))
    filtered = apply_baseline(entries, [], in_scope([tmp_path / "other"], tmp_path))
    assert filtered.fixed == 0
    assert filtered.known == entries


def test_written_file_is_sorted_and_stable(tmp_path: Path) -> None:
    paths = [str(tmp_path / name) for name in ("b.py", "a.py")]
    read = _reader(dict.fromkeys(paths, SOURCE))
    first = tmp_path / "one.json"
    second = tmp_path / "two.json"
    write_baseline(first, rows(identify([_found(p, 2) for p in paths], tmp_path, read)))
    write_baseline(second, rows(identify([_found(p, 2) for p in reversed(paths)], tmp_path, read)))
    assert first.read_text() == second.read_text()
    assert [r["path"] for r in json.loads(first.read_text())["findings"]] == ["a.py", "b.py"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "invalid JSON"),
        ('{"tool": "other"}', "not an ivycheck baseline"),
        ('{"tool": "ivycheck", "version": 99}', "format version 99"),
        ('{"tool": "ivycheck", "version": 1, "findings": [{"path": "a"}]}', "malformed"),
    ],
)
def test_bad_baseline_files_are_errors(tmp_path: Path, content: str, message: str) -> None:
    file = tmp_path / "b.json"
    file.write_text(content)
    with pytest.raises(BaselineError, match=message):
        load_baseline(file)
    with pytest.raises(BaselineError, match="not found"):
        load_baseline(tmp_path / "missing.json")
