"""Incremental re-checks give exactly the diagnostics of a full check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.incremental import IncrementalChecker
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import FunctionMemo, summarize
from tests.helpers import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from corpus import API_HEADER, generate

RULES = list(all_rules().values())


def _key(diagnostics: list[Diagnostic]) -> list[tuple[object, ...]]:
    return [(d.code, d.line, d.col, d.end_line, d.end_col, d.message) for d in diagnostics]


def _both(
    checker: IncrementalChecker, source: str, relative: str, config: Config, index: ProjectIndex
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    incremental = checker.check(
        source,
        path=relative,
        config=config,
        rules=RULES,
        index=index,
        relative_path=relative,
        index_version=0,
    )
    full = check_source(
        source,
        path=relative,
        config=config,
        rules=RULES,
        index=index,
        relative_path=relative,
        fixes=False,
    )
    return incremental, full


def _project(root: Path) -> tuple[Config, ProjectIndex, dict[str, str]]:
    config = Config(root=root)
    sources = {config.relative(path): path.read_text() for path in sorted(root.rglob("*.py"))}
    index = ProjectIndex.build(
        summarize(text, relative, config.part_of(relative)) for relative, text in sources.items()
    )
    return config, index, sources


@pytest.mark.parametrize("tree", ["examples", "tests/fixtures/ivy_like"])
def test_first_check_equals_full_check_on_real_trees(tree: str) -> None:
    config, index, sources = _project(REPO / tree)
    runs = 0
    for relative, source in sources.items():
        checker = IncrementalChecker()
        incremental, full = _both(checker, source, relative, config, index)
        assert _key(incremental) == _key(full), relative
        runs += checker.incremental_runs
    assert runs >= 5, "the incremental path must really be taken on API files"


EDITS = [
    # flip a decorator order (IVY005 appears), then restore it
    lambda s: s.replace(
        "@handle_out_argument\n@to_native_arrays_and_back\n@handle_array_function\n@handle_device\ndef fn_10(",
        "@to_native_arrays_and_back\n@handle_out_argument\n@handle_array_function\n@handle_device\ndef fn_10(",
    ),
    lambda s: s,
    # a new function with a view decorator and no copy (IVY006), in the middle
    lambda s: s.replace(
        "\n\n@handle_exceptions\n",
        "\n\n@handle_view\ndef extra(x):\n    return x\n\n\n@handle_exceptions\n",
        1,
    ),
    # a suppression on a reported line
    lambda s: s.replace("def fn_1(x", "def fn_1(x", 1).replace(
        "@handle_out_argument\n@handle_device\ndef fn_1(",
        "@handle_out_argument  # noqa: IVY005\n@handle_device\ndef fn_1(",
    ),
    # the imports change: every definition is analysed again
    lambda s: s.replace(
        "from typing import Optional, Sequence, Union\n",
        "from typing import Optional, Sequence, Union\nimport numpy as np\n",
    ),
    # a syntax error: the full check reports IVY000
    lambda s: s.replace("def fn_20(", "def fn_20(:"),
]


def test_edit_sequence_matches_full_checks(tmp_path: Path) -> None:
    generate(tmp_path, 200)
    config, index, sources = _project(tmp_path)
    relative = "ivy/functional/ivy/module_0000.py"
    original = sources[relative]
    checker = IncrementalChecker()
    _both(checker, original, relative, config, index)
    for number, edit in enumerate(EDITS):
        source = edit(original)
        incremental, full = _both(checker, source, relative, config, index)
        assert _key(incremental) == _key(full), number
    assert checker.incremental_runs >= 5 and checker.full_runs >= 1


def test_only_changed_definitions_are_analysed_again(tmp_path: Path) -> None:
    generate(tmp_path, 200)
    config, index, sources = _project(tmp_path)
    relative = "ivy/functional/ivy/module_0001.py"
    source = sources[relative]
    checker = IncrementalChecker()
    incremental, full = _both(checker, source, relative, config, index)
    assert _key(incremental) == _key(full)
    assert checker.asked == 50
    # CPython's tree lets through only the definitions a rule may find something in
    assert checker.reanalysed == len({d.line for d in full}) < 10
    edited = source.replace("def fn_60(", "def fn_60(  ")
    incremental, full = _both(checker, edited, relative, config, index)
    assert _key(incremental) == _key(full)
    assert checker.asked == 1
    assert API_HEADER.splitlines()[0].startswith('"""')


BACKEND_EDITS = [
    lambda s: s,
    # a function's body changes; the others move down a line
    lambda s: s.replace("def fn_3(", "def fn_3(\n", 1),
    # attributes set after the definitions, directly, with setattr and in a loop
    lambda s: (
        s + "\nfn_1.support_native_out = True\nsetattr(fn_2, 'x', 1)\n"
        "for f in (fn_1, fn_3):\n    f.y = 2\n"
    ),
    # a wrapper applied by assignment adds a decorator to the function's summary
    lambda s: s + "\nfn_1 = handle_out_argument(fn_1)\n",
    # the imports change (the last binding wins): every function's qualified calls change
    lambda s: s + "\nimport torch as np\nimport numpy as ivy\n",
    # the same function twice (the second wins), and a syntax error
    lambda s: s + "\n" + s[s.index("def fn_1(") :],
    lambda s: s.replace("def fn_1(", "def fn_1(:", 1),
]


@pytest.mark.parametrize("part", ["functional", "backend:numpy"])
def test_summaries_reusing_the_previous_texts_equal_fresh_ones(tmp_path: Path, part: str) -> None:
    """The language server summarizes each keystroke's buffer with the previous text's
    function summaries (``summarize(..., memo=)``): the result must be the summary made
    from scratch, whatever changed, and stay so when the memo's summaries are handed out
    and then changed by the module's statements (attributes, wrappers)."""
    generate(tmp_path, 200)
    _, _, sources = _project(tmp_path)
    relative = (
        "ivy/functional/ivy/module_0000.py"
        if part == "functional"
        else next(r for r in sources if r.startswith("ivy/functional/backends/numpy/"))
    )
    original = sources[relative]
    memo: FunctionMemo = {}
    for number, edit in enumerate(BACKEND_EDITS * 2):
        source = edit(original)
        reused = summarize(source, relative, part, memo=memo)
        assert reused == summarize(source, relative, part), number
        assert reused.facts_digest() == summarize(source, relative, part).facts_digest()
    assert memo, "the memo holds the last text's functions"


CONTEXT_DECIDES = """\
import ivy
from ivy.func_wrapper import handle_out_argument


def other(x):
    return x  # not out


def linear(x, weight, /, *, bias=None, out=None):
    return ivy.add(ivy.matmul(x, weight), bias, out=out)
"""


def test_the_tree_asked_holds_the_context(tmp_path: Path) -> None:
    """Whether libcst sees a definition is asked of CPython's tree of the context with
    that definition: here only a statement of the context (the wrapper applied by
    assignment) makes ``linear``'s own ``out=out`` dead (IVY010); a tree of the
    definition alone would let the finding through unseen."""
    config = Config(root=tmp_path)
    relative = "ivy/functional/ivy/layers.py"
    index = ProjectIndex()
    checker = IncrementalChecker()
    wrapped = CONTEXT_DECIDES + "\n\nlinear = handle_out_argument(linear)\n"
    for number, source in enumerate([CONTEXT_DECIDES, wrapped, CONTEXT_DECIDES, wrapped]):
        incremental, full = _both(checker, source, relative, config, index)
        assert _key(incremental) == _key(full), number
        assert [d.code for d in full] == (["IVY010"] if number % 2 else []), number
    assert checker.incremental_runs == 4 and checker.full_runs == 0


def test_a_definition_the_tree_rules_out_is_not_parsed_again(tmp_path: Path) -> None:
    """A changed definition no rule may find anything in (though its text has a trigger
    word, ``out``) is neither parsed nor walked with libcst, and its empty result is kept
    like any other."""
    config = Config(root=tmp_path)
    relative = "ivy/functional/ivy/layers.py"
    checker = IncrementalChecker()
    _both(checker, CONTEXT_DECIDES, relative, config, ProjectIndex())
    edited = CONTEXT_DECIDES.replace("return x", "return x + 1")
    incremental, full = _both(checker, edited, relative, config, ProjectIndex())
    assert _key(incremental) == _key(full) == []
    assert (checker.asked, checker.reanalysed) == (1, 0)
    assert not any("x + 1" in text for text in checker._parsed)
