"""Files checked while they are summarized for the index give the findings of the check
after it (``checker/run/indexing.py``: ``check_while_summarizing``).

The command checks a file right after its CPython summary, tree in hand, when no rule
that can find anything in it reads other files; the rest wait for the index. Both ways
must give the same findings, fixes and cache entries.
"""

from __future__ import annotations

import ast
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from ivycheck.checker.base import pyast
from ivycheck.checker.base.diagnostics import Diagnostic, Fix
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, FileUnderCheck, Rule
from ivycheck.checker.project.config import Overrides
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.checker.run import indexing, runner
from tests.rules.test_examples import CONFIG, _index

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

    def spy(*args: object, **kwargs: object) -> list[Diagnostic] | None:
        found = original(*args, **kwargs)  # type: ignore[arg-type]
        if found is not None:
            early.append(str(args[1]))
        return found

    monkeypatch.setattr(indexing, "check_while_summarizing", spy)
    both = _run(root)
    monkeypatch.setattr(indexing, "check_while_summarizing", lambda *args, **kwargs: None)
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


def _cases() -> list[object]:
    return [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in all_rules().values()
        if rule.NEEDS_INDEX
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ]


@pytest.mark.parametrize(("rule", "example"), _cases())
def test_may_find_without_the_index_answers_as_with_it_or_not_at_all(
    rule: type[Rule], example: Example
) -> None:
    """Asked before the index exists, a ``may_find`` that reads it has no answer (``None``);
    one that does not gives the answer it gives with the whole index."""
    try:
        tree = ast.parse(example.code)
    except SyntaxError:
        return  # IVY000's: the engine asks no rule
    config = CONFIG.with_overrides(select=(rule.CODE,))
    with_index = FileUnderCheck(example.code, example.path, example.path, config, _index(example))
    unbuilt = replace(with_index, index=indexing._IndexNotBuilt())
    decided = indexing._decided_without_index(rule, tree, unbuilt)
    assert decided is None or decided == rule.may_find(tree, with_index)


def test_a_rule_catching_every_exception_still_has_no_answer_without_the_index() -> None:
    """A ``may_find`` that swallows ``Exception`` around an index read must not turn the
    missing index into ``False``."""

    class Careless(Rule):
        CODE = "IVY998"
        NAME = "careless"
        MESSAGE = "..."
        NEEDS_INDEX = True

        @classmethod
        def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
            try:
                return bool(file.index.files)
            except Exception:  # noqa: BLE001 - what the test is about
                return False

    file = FileUnderCheck("x = 1\n", "f.py", "f.py", CONFIG, indexing._IndexNotBuilt())
    assert indexing._decided_without_index(Careless, ast.parse("x = 1\n"), file) is None


def test_some_rules_reading_the_index_decide_files_without_it() -> None:
    """What makes early checks worth it on Ivy's code: IVY004/005/006 read the index only
    for what they report, so their ``may_find`` rules most files out before it exists."""
    decided = set()
    for rule in all_rules().values():
        if not rule.NEEDS_INDEX:
            continue
        for example in rule.VALID:
            try:
                tree = ast.parse(example.code)
            except SyntaxError:
                continue
            file = FileUnderCheck(
                example.code, example.path, example.path, CONFIG, indexing._IndexNotBuilt()
            )
            if indexing._decided_without_index(rule, tree, file) is False:
                decided.add(rule.CODE)
    assert {"IVY004", "IVY005", "IVY006"} <= decided


@pytest.mark.parametrize(
    ("rule", "example"),
    [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in all_rules().values()
        if not rule.NEEDS_INDEX
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ],
)
def test_a_rule_that_reads_no_other_file_finds_the_same_with_its_own_file_only(
    rule: type[Rule], example: Example
) -> None:
    """What an early check gives a rule without ``NEEDS_INDEX``: an index of the file
    alone. Its findings must be those it gives with the whole project's (the examples
    with other files are the ones that would tell)."""
    config = CONFIG.with_overrides(select=(rule.CODE,))
    alone = ProjectIndex.build(
        [summarize(example.code, example.path, config.part_of(example.path))]
    )
    found = [
        check_source(
            example.code,
            path=example.path,
            config=config,
            rules=list(all_rules().values()),
            index=index,
            relative_path=example.path,
        )
        for index in (_index(example), alone)
    ]
    assert [(d, d.fix) for d in found[0]] == [(d, d.fix) for d in found[1]]


def test_on_one_core_no_file_is_parsed_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The files that wait for the index are checked with the tree their summary parsed
    (``pyast.keep``), and the findings are those of a run that parses them again."""
    root = _tree(tmp_path)
    files = {text for path in root.rglob("*.py") if _parses(text := path.read_text())}
    parsed: list[str] = []
    original = ast.parse

    def counting(source: str | bytes, *args: object, **kwargs: object) -> ast.AST:
        if source in files:
            parsed.append(str(source))
        return original(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pyast.ast, "parse", counting)
    kept = _run(root)
    assert parsed and len(parsed) == len(set(parsed))
    assert not pyast._kept, "every kept tree is released after the run"
    monkeypatch.setattr(pyast, "KEEP_LIMIT", 0)
    parsed.clear()
    again = _run(root)
    assert len(parsed) > len(set(parsed)), "without keeping, the late files are parsed twice"
    assert _seen(kept) == _seen(again)


def test_kept_trees_are_bounded_and_taken_once() -> None:
    text = "x = 1\n" * 10
    tree = ast.parse(text)
    try:
        assert pyast.keep(text, tree)
        assert pyast.parse(str(text)) is tree
        pyast.forget()
        assert pyast.parse(text) is not tree, "a kept tree is handed out once"
        assert not pyast.keep("y" * (pyast.KEEP_LIMIT + 1), tree)
    finally:
        pyast.release()
        pyast.forget()


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True
