"""A safe ``--fix`` over the real Ivy snapshot creates no finding, keeps every file valid
Python and converges (issue 15: fix safety is proven on real code, not assumed).

The corpus is copied to a temporary directory (it is read-only input) and the real command
runs over the copy, as a user would run it.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpora" / "ivy-975c8fc"
_LINE = re.compile(r"\bline \d+\b")


def _ivycheck(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ivycheck", "--no-cache", *args, "ivy"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def _findings(root: Path) -> set[tuple[str, str, str]]:
    """(file, code, message) with line numbers in messages blanked: a fix moves lines."""
    run = _ivycheck(root, "--format", "json", "--exit-zero")
    assert run.returncode == 0, run.stderr
    return {
        (d["filename"], d["code"], _LINE.sub("line N", d["message"]))
        for d in json.loads(run.stdout)
    }


def _sources(root: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted((root / "ivy").rglob("*.py"))}


@pytest.mark.slow
def test_safe_fix_over_the_corpus_is_safe(tmp_path: Path) -> None:
    assert CORPUS.is_dir(), f"the shared corpus is missing: {CORPUS}"
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS / "ivy", root / "ivy")
    before = _findings(root)
    fixed = _ivycheck(root, "--fix", "--exit-zero")
    assert fixed.returncode == 0, fixed.stderr
    after_fix = _sources(root)
    for path, text in after_fix.items():
        ast.parse(text, filename=str(path))  # every file still parses
    after = _findings(root)
    assert after - before == set(), "the fix created findings"
    assert len(after) < len(before), "no safe fix was applied at all"
    again = _ivycheck(root, "--fix", "--exit-zero")
    assert again.returncode == 0, again.stderr
    assert _sources(root) == after_fix, "a second --fix changed files"
