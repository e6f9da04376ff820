"""Files checked while they are summarized for the index give the findings of the check
after it (``checker/run/indexing.py``: ``check_while_summarizing``).

The command checks a file right after its CPython summary, tree in hand, when no rule
that can find anything in it reads other files; the rest wait for the index. Both ways
must give the same findings, fixes and cache entries.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic, Fix
from ivycheck.checker.core.engine import check_file, check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, FileUnderCheck, Finding, Rule
from ivycheck.checker.project.config import Overrides
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import summarize_file
from ivycheck.checker.project.summary import FileSummary, summarize
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


def _early(rule: type[Rule], example: Example) -> list[Diagnostic] | None:
    """What the command's early check gives for ``example`` with only ``rule`` selected."""
    config = CONFIG.with_overrides(select=(rule.CODE,))
    summary = summarize_file(example.code, example.path, config.part_of(example.path))
    return indexing.check_while_summarizing(
        example.code, example.path, example.path, config, summary
    )


@pytest.mark.parametrize(("rule", "example"), _cases())
def test_an_early_check_answers_as_after_the_index_or_not_at_all(
    rule: type[Rule], example: Example
) -> None:
    """Checked before the index exists, a file whose rules read the index has no answer
    (``None``); one whose rules do not gives the findings it gets with the whole index."""
    early = _early(rule, example)
    if early is None:
        return
    config = CONFIG.with_overrides(select=(rule.CODE,))
    after = check_source(
        example.code,
        path=example.path,
        config=config,
        rules=list(all_rules().values()),
        index=_index(example),
        relative_path=example.path,
    )
    assert [(d, d.fix) for d in early] == [(d, d.fix) for d in after]


def test_a_rule_catching_every_exception_still_waits_for_the_index() -> None:
    """A check that swallows ``Exception`` around an index read must not turn the missing
    index into an answer."""

    class Careless(Rule):
        CODE = "IVY998"
        NAME = "careless"
        MESSAGE = "..."
        NEEDS_INDEX = True

        @classmethod
        def check(cls, tree: ast.Module, file: FileUnderCheck) -> list[Finding]:
            try:
                return [] if file.index.files else [Finding(1, 0, 1, 1, "no index")]
            except Exception:  # noqa: BLE001 - what the test is about
                return [Finding(1, 0, 1, 1, "swallowed")]

    file = FileUnderCheck.of("x = 1\n", "f.py", CONFIG, index=indexing._IndexNotBuilt())
    with pytest.raises(indexing._IndexRead):
        check_file(file, [Careless])


def test_some_rules_reading_the_index_decide_files_without_it() -> None:
    """What makes early checks worth it on Ivy's code: IVY004 and IVY006 read the index
    only for some shapes, so most files are checked before it exists."""
    decided = {
        rule.CODE
        for rule in all_rules().values()
        if rule.NEEDS_INDEX
        for example in rule.VALID
        if _parses(example.code) and _early(rule, example) is not None
    }
    assert {"IVY004", "IVY006"} <= decided


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


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _rule(code: str, check: Callable[[ast.Module, FileUnderCheck], list[Finding]]) -> type[Rule]:
    """A rule for these tests: ``check`` decides; it reads the index (or not) as it says."""
    attributes = {
        "CODE": code,
        "NAME": code.lower(),
        "MESSAGE": "...",
        "check": staticmethod(check),
    }
    return type(code, (Rule,), {**attributes, "NEEDS_INDEX": code == "IVY991"})


_Reader = _rule(
    "IVY991", lambda tree, file: [] if file.index.files else [Finding(1, 0, 1, 1, "no index")]
)
"""Reads the index on every file."""


def _early_with(rules: list[type[Rule]], monkeypatch: pytest.MonkeyPatch) -> object:
    monkeypatch.setattr(indexing, "all_rules", lambda: {rule.CODE: rule for rule in rules})
    config = CONFIG.with_overrides(extend_select=tuple(rule.CODE for rule in rules))
    summary = summarize_file("x = 1\n", "m.py", config.part_of("m.py"))
    return indexing.check_while_summarizing("x = 1\n", "m.py", "m.py", config, summary)


def test_an_early_check_that_must_wait_runs_no_rule_before_the_index_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rules that may read the index run first: a check that will wait for the index
    stops before the others have done work that would be thrown away."""
    ran: list[str] = []

    def local(tree: ast.Module, file: FileUnderCheck) -> list[Finding]:
        ran.append("IVY990")
        return []

    assert _early_with([_rule("IVY990", local), _Reader], monkeypatch) is None
    assert ran == []


def test_a_file_whose_early_check_had_a_rule_fail_is_checked_after_the_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two rules failing on one file give two IVY999s that tie in position and code: their
    order is the registry's order of the rules, which the early check does not keep, so
    such a file is checked again after the index."""

    def broken(tree: ast.Module, file: FileUnderCheck) -> list[Finding]:
        raise ValueError("broken")

    assert _early_with([_rule("IVY990", broken)], monkeypatch) is None
    assert _early_with([_rule("IVY990", lambda tree, file: [])], monkeypatch) == []


def test_summaries_made_in_the_process_that_builds_the_index_are_not_encoded(
    tmp_path: Path,
) -> None:
    """Only a summary crossing a process boundary is encoded: the index of a one-job run
    reads the one it was made as, and answers as from the encoded one."""
    path = tmp_path / "ivy" / "functional" / "ivy" / "m.py"
    path.parent.mkdir(parents=True)
    path.write_text("def tan(x, *, out=None):\n    return x\n")
    item = (str(path), "ivy/functional/ivy/m.py", "functional", 10**6, None)
    _, _, plain, _ = indexing.summarize_path(item, encode=False)
    _, _, encoded, _ = indexing.summarize_path(item)
    assert isinstance(plain, FileSummary)
    assert not isinstance(encoded, FileSummary)
    indexes = [ProjectIndex.build([summary]) for summary in (plain, encoded)]
    assert [index.api_function("tan") for index in indexes] == [plain.functions["tan"]] * 2
    assert indexes[0].digest() == indexes[1].digest()
