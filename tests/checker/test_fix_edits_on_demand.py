"""Fix text edits are made only for the reports that show them, and never lost to the cache.

The text reporters show that a fix exists (``[*]``, the fixable counts); JSON and SARIF show
its edits. A run without edits never renders a fix's text (``Rule.fix``), so its cached
results lack edits: they must not serve a run that shows them, while results with edits
serve both.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ivycheck.checker.run import runner

BACKEND = "ivy/functional/backends/numpy"
SOURCES = {
    "plain.py": """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)
""",
    "aliased.py": """\
import numpy as np


def sin(x, /, *, out=None):
    o = out
    return np.sin(x, out=o)
""",
}
"""Two fixable functions: ``tan`` passes ``out`` on directly, ``sin`` through an alias."""


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / BACKEND).mkdir(parents=True)
    for name, source in SOURCES.items():
        (root / BACKEND / name).write_text(source)
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    return root


def _run(root: Path, edits: bool) -> runner.RunResult:
    return runner.run(runner.RunOptions(paths=(root,), jobs=1, fix_edits=edits))


def _edits(result: runner.RunResult) -> list[int]:
    return sorted(len(d.fix.edits) for d in result.diagnostics if d.fix is not None)


def test_without_edits_the_plain_function_has_a_fix_without_text(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    options = runner.RunOptions(paths=(root,), jobs=1, use_cache=False, fix_edits=False)
    found = runner.run(options).diagnostics
    assert [d.code for d in found] == ["IVY001", "IVY001"]
    assert _edits(runner.run(options)) == [0, 0]  # offered, their text never rendered


def test_results_without_edits_do_not_serve_a_run_that_shows_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IVYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    root = _tree(tmp_path)
    assert _edits(_run(root, edits=False)) == [0, 0]
    shown = _run(root, edits=True)
    assert shown.cache_hits == 0
    assert _edits(shown) == [1, 1]
    again = _run(root, edits=False)  # the entry with edits serves a run without them
    assert again.cache_hits == 2
    assert _edits(again) == [1, 1]


def test_the_json_report_has_every_edit_and_the_text_report_the_markers(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    command = [sys.executable, "-m", "ivycheck", "--no-cache", "--exit-zero", str(root)]
    as_json = subprocess.run([*command, "--format", "json"], capture_output=True, text=True)
    found = json.loads(as_json.stdout)
    assert [len(d["fix"]["edits"]) for d in found] == [1, 1]
    as_text = subprocess.run([*command, "--unsafe-fixes"], capture_output=True, text=True)
    assert as_text.stdout.count("IVY001 [*]") == 2
