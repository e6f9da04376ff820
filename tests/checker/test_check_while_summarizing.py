"""Files checked while they are summarized for the index give the findings of the check
after it (``checker/run/indexing.py``: ``check_while_summarizing``).

The command checks a file right after its CPython summary, tree in hand, when no rule
that can find anything in it reads other files; the rest wait for the index. Both ways
must give the same findings, fixes and cache entries.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic, Fix
from ivycheck.checker.project.config import Overrides
from ivycheck.checker.run import indexing, runner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


_NOQA = """\
import ivy
import numpy as np


def run(x, y):
    ivy.add(x, y, out=np.zeros(3))  # noqa: IVY007 - the caller converts it
    return ivy.add(x, y)  # noqa: IVY002
"""
"""A file of user code with a used and an unused suppression (IVY100 when selected);
only rules that read no other file can find anything in it, so it is checked early."""


def _run(root: Path, use_cache: bool = False) -> runner.RunResult:
    options = runner.RunOptions(
        paths=(root,), jobs=1, use_cache=use_cache, overrides=Overrides(extend_select=("IVY100",))
    )
    return runner.run(options)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root)
    (root / "suppressed.py").write_text(_NOQA)
    return root


def _seen(result: runner.RunResult) -> list[tuple[Diagnostic, Fix | None]]:
    return [(d, d.fix) for d in result.diagnostics]


def test_findings_are_the_same_checked_early_or_after_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    early: list[str] = []
    original = indexing.check_while_summarizing

    def spy(*args: object) -> list[Diagnostic] | None:
        found = original(*args)  # type: ignore[arg-type]
        if found is not None:
            early.append(str(args[1]))
        return found

    monkeypatch.setattr(indexing, "check_while_summarizing", spy)
    both = _run(root)
    monkeypatch.setattr(indexing, "check_while_summarizing", lambda *args: None)
    after_index = _run(root)
    assert _seen(both) == _seen(after_index)
    assert both.diagnostics, "examples/ has findings"
    assert [d.code for d in both.diagnostics if d.path.endswith("suppressed.py")] == ["IVY100"]
    assert any(path.endswith("suppressed.py") for path in early)
    assert early, "no file was checked while summarized"
    assert len(early) < both.files, "every file was checked early: nothing waited"


def test_a_file_checked_early_is_cached_like_any_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    monkeypatch.setenv("IVYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    cold = _run(root, use_cache=True)
    warm = _run(root, use_cache=True)
    assert warm.cache_hits == warm.files == cold.files
    assert _seen(warm) == _seen(cold)


def test_fixing_checks_after_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--fix``/``--diff`` write fixes through the check phase: nothing is checked early."""
    root = _tree(tmp_path)
    asked: list[object] = []
    monkeypatch.setattr(
        indexing, "check_while_summarizing", lambda *args: asked.append(args) or None
    )
    runner.run(runner.RunOptions(paths=(root,), jobs=1, use_cache=False, diff=True))
    assert asked == []
