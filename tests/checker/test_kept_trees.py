"""A run on one core parses each file once: the trees of files that wait for the index are
kept by the run (``checker/base/trees.KeptTrees``) and handed to their check."""

from __future__ import annotations

import ast
import gc
import shutil
from pathlib import Path

import pytest

from ivycheck.checker.base import collector, trees
from ivycheck.checker.base.diagnostics import Diagnostic, Fix
from ivycheck.checker.run import runner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(root: Path) -> runner.RunResult:
    return runner.run(runner.RunOptions(paths=(root,), jobs=1, use_cache=False))


def _seen(result: runner.RunResult) -> list[tuple[Diagnostic, Fix | None]]:
    return [(d, d.fix) for d in result.diagnostics]


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def test_on_one_core_no_file_is_parsed_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files that wait for the index are checked with the tree their summary parsed,
    and the findings are those of a run that parses them again."""
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root)
    files = {text for path in root.rglob("*.py") if _parses(text := path.read_text())}
    parsed: list[str] = []
    original = ast.parse

    def counting(source: str | bytes, *args: object, **kwargs: object) -> ast.AST:
        if source in files:
            parsed.append(str(source))
        return original(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(trees.ast, "parse", counting)
    kept = _run(root)
    assert parsed and len(parsed) == len(set(parsed))
    monkeypatch.setattr(trees.KeptTrees, "keep", lambda self, source, tree: False)
    parsed.clear()
    again = _run(root)
    assert len(parsed) > len(set(parsed)), "without keeping, the late files are parsed twice"
    assert _seen(kept) == _seen(again)


def test_on_one_core_a_fix_run_parses_a_file_with_nothing_to_fix_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--diff``/``--fix`` on one core check each file with the tree its summary parsed;
    only a file with a fix to apply goes through the fix loop (and is parsed again). The
    diffs and findings are those of a run that keeps no tree."""
    root = tmp_path / "examples"
    shutil.copytree(EXAMPLES, root)
    clean = root / "nothing_to_fix.py"
    clean.write_text("import ivy\n\n\ndef f(x, *, out=None):\n    return ivy.add(x, x, out=out)\n")
    parsed: list[str] = []
    original = ast.parse

    def counting(source: str | bytes, *args: object, **kwargs: object) -> ast.AST:
        parsed.append(str(source))
        return original(source, *args, **kwargs)  # type: ignore[arg-type]

    def diff() -> runner.RunResult:
        return runner.run(runner.RunOptions(paths=(root,), jobs=1, use_cache=False, diff=True))

    monkeypatch.setattr(trees.ast, "parse", counting)
    kept = diff()
    assert kept.diffs, "examples/ has fixes"
    assert parsed.count(clean.read_text()) == 1
    monkeypatch.setattr(trees.KeptTrees, "keep", lambda self, source, tree: False)
    parsed.clear()
    again = diff()
    assert parsed.count(clean.read_text()) == 2
    assert (_seen(kept), sorted(kept.diffs), kept.fixed) == (
        _seen(again),
        sorted(again.diffs),
        again.fixed,
    )


def test_kept_trees_are_bounded_and_taken_once() -> None:
    text = "x = 1\n" * 10
    tree = ast.parse(text)
    kept = trees.KeptTrees(limit=100)
    assert kept.keep(text, tree)
    assert kept.take(str(text)) is tree
    assert kept.take(text) is None, "a kept tree is handed out once"
    assert not kept.keep("y" * 101, tree)
    assert kept.keep(text, tree)
    kept.clear()
    assert kept.take(text) is None


def test_a_tree_parsed_on_one_core_is_kept_out_of_every_collection() -> None:
    """``collector.untraced_parse``: the young objects are collected first (a cycle the
    last file left is freed), the tree is frozen (no collection traverses it) and is still
    freed by reference counting."""

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    with collector.paused():
        gc.collect()
        Cycle()
        tree = collector.untraced_parse(lambda: trees.parse("def f(x):\n    return [x, x]\n"))
        assert not any(type(o) is Cycle for o in gc.get_objects())
        assert not any(o is tree for o in gc.get_objects())  # (frozen objects are not listed)
        nodes = sum(1 for _ in ast.walk(tree))
        frozen = gc.get_freeze_count()
        del tree
        assert frozen - gc.get_freeze_count() >= nodes
    gc.unfreeze()
