"""Every front door reports the same findings on real code: ``scripts/doors_agree.py`` (the
``make doors`` gate, run there on both shared Ivy snapshots) on a few files of one snapshot,
copied here at test time: every ``ivycheck --format``, real flake8 and the language server
(push and pull, closed files and opened ones) against the JSON door, through the script's
own code."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import load_script

REPO = Path(__file__).resolve().parents[2]
SNAPSHOT = REPO.parent / "shared" / "corpora" / "ivy-975c8fc"
FILES = (
    "ivy/functional/ivy/experimental/linear_algebra.py",  # IVY005 008 009 010 011, fixes
    "ivy/functional/ivy/experimental/elementwise.py",  # IVY009 010 016, non-ASCII text
    "ivy/functional/backends/torch/elementwise.py",  # IVY001 002 003 015, fixes
    "ivy/functional/backends/numpy/activations.py",  # IVY002 003 008
    "ivy/data_classes/array/experimental/manipulation.py",  # IVY006
)

ASTRAL = "ivy/functional/ivy/astral.py"
ASTRAL_SOURCE = (
    'def astral(x):\n    return "\U0001d465\U0001d466" and current_backend(x).nowhere(x)\n'
)
"""IVY017 after two characters outside the Basic Multilingual Plane: column 21 in code points,
character 22 in LSP's UTF-16 units."""


def _load_script() -> ModuleType:
    return load_script(REPO / "scripts" / "doors_agree.py", "doors_agree")


doors = _load_script()


def _tree(root: Path) -> Path:
    """The files, their packages' ``__init__.py`` (they make ``ivy`` the project root, as in
    the snapshot), a file that does not parse and :data:`ASTRAL`, under ``root/ivy``."""
    packages = {f"{parent}/__init__.py" for name in FILES for parent in Path(name).parents}
    for name in [*FILES, *packages]:
        if (SNAPSHOT / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(SNAPSHOT / name, root / name)
    (root / "ivy" / "broken.py").write_text("def broken(:\n    pass\n")  # IVY000: flake8's E999
    (root / ASTRAL).write_text(ASTRAL_SOURCE, encoding="utf-8")
    return root / "ivy"


def test_every_door_reports_what_the_json_door_reports(tmp_path: Path) -> None:
    """One test (one run of every door): under xdist a fixture shared by several tests
    would run once per worker."""
    if not SNAPSHOT.is_dir():
        pytest.fail(f"the shared Ivy snapshot is missing: expected {SNAPSHOT}")
    comparisons: list[Any] = doors.check_folder(_tree(tmp_path), doors.DOORS, tmp_path / "cache")
    assert [c.door for c in comparisons] == list(doors.DOORS)
    shown = "\n".join(
        f"{c.door}: missing {[f.shown() for f in c.missing][:5]} extra "
        f"{[f.shown() for f in c.extra][:5]}"
        for c in comparisons
        if not c.agrees
    )
    assert not shown, shown
    reference = comparisons[0].run.findings
    assert len({f.code for f in reference}) >= 10
    assert "IVY000" in {f.code for f in reference}
    assert (ASTRAL, "IVY017", 2, 21) in {(f.path, f.code, f.line, f.col) for f in reference}
    by_door = {c.door: c for c in comparisons}
    assert by_door["flake8"].by_design == 1  # the IVY000 flake8 leaves to E999
    assert all(len(c.run.findings) >= len(reference) - 1 for c in comparisons)


def test_a_moved_dropped_or_added_finding_is_a_difference() -> None:
    finding = doors.Finding("ivy/a.py", "IVY005", 3, 1, 3, 20, "m")
    other = finding._replace(line=9)
    reference = [finding, other]
    folder = doors.Folder.of(Path("."), Path("."))
    for findings in ([finding._replace(col=2), other], [other], [finding, finding, other]):
        run = doors.DoorRun(findings, 0.0)
        assert not doors.compare("json", run, reference, folder).agrees
    assert doors.compare("json", doors.DoorRun(reference[::-1], 0.0), reference, folder).agrees
    without_ends = [f._replace(end_line=None, end_col=None) for f in reference]
    assert doors.compare("text", doors.DoorRun(without_ends, 0.0), reference, folder).agrees
