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
from ivycheck.checker.project.summary import summarize
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
    _both(checker, source, relative, config, index)
    assert checker.reanalysed == 50
    edited = source.replace("def fn_60(", "def fn_60(  ")
    incremental, full = _both(checker, edited, relative, config, index)
    assert _key(incremental) == _key(full)
    assert checker.reanalysed == 1
    assert API_HEADER.splitlines()[0].startswith('"""')
