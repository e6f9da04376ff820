"""The benchmark corpus holds exactly the mistakes it promises.

``benchmarks/corpus.py`` plants one mistake per rule in every ``MISTAKE_EVERY`` functions;
the real ``ivycheck`` command over a generated tree must report exactly
``expected_findings(...)``, each finding inside the function that carries that mistake, and
nothing else (the clean functions stay clean).
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ivycheck.checker.core.registry import all_rules
from tests.helpers import REPO, load_script, run_ivycheck

FUNCTIONS = 1000
NAME = re.compile(r"^fn_(\d+)$")


def _load_corpus() -> ModuleType:
    return load_script(REPO / "benchmarks/corpus.py", "benchmark_corpus")


corpus = _load_corpus()


@pytest.fixture(scope="module")
def findings(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A generated tree of ``FUNCTIONS`` functions and what ``ivycheck`` reports on it."""
    root = tmp_path_factory.mktemp("corpus")
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    corpus.generate(root, FUNCTIONS)
    done = run_ivycheck("--format", "json", "--no-cache", "--exit-zero", ".", cwd=root)
    assert done.returncode == 0, done.stderr
    return root, json.loads(done.stdout)


def _function_of(node: ast.stmt) -> int | None:
    """The number ``n`` of the ``fn_<n>`` a top-level statement defines or sets attributes on."""
    name = None
    if isinstance(node, ast.FunctionDef):
        name = node.name
    elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
        target = node.targets[0].value
        name = target.id if isinstance(target, ast.Name) else None
    found = NAME.match(name or "")
    return int(found.group(1)) if found else None


def _owners(path: Path) -> dict[int, int]:
    """Line -> function number, for every line of every ``fn_<n>`` statement of a file."""
    owners: dict[int, int] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        number = _function_of(node)
        if number is None:
            continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        for line in range(first, (node.end_lineno or node.lineno) + 1):
            owners[line] = number
    return owners


def test_every_planted_rule_occurs_in_1000_functions() -> None:
    expected = corpus.expected_findings(1000)
    assert set(expected) == set(corpus.MISTAKES)
    assert all(count > 0 for count in expected.values()), expected
    assert set(expected) <= set(all_rules()), "planted codes must be real rules"


def test_unplanted_rules_are_explained() -> None:
    engine_codes = {"IVY000", "IVY999"}
    missing = set(all_rules()) - engine_codes - set(corpus.MISTAKES)
    _, _, explained = (corpus.__doc__ or "").partition("Not planted:")
    assert all(code in explained for code in missing | engine_codes), missing


def test_findings_per_rule_equal_expected(findings: tuple[Path, list[dict[str, Any]]]) -> None:
    _, found = findings
    expected = {code: n for code, n in corpus.expected_findings(FUNCTIONS).items() if n}
    assert dict(sorted(Counter(d["code"] for d in found).items())) == expected


def test_each_finding_is_in_the_function_planted_for_it(
    findings: tuple[Path, list[dict[str, Any]]],
) -> None:
    root, found = findings
    owners = {path: _owners(root / path) for path in {d["filename"] for d in found}}
    located = Counter((owners[d["filename"]].get(d["location"]["row"]), d["code"]) for d in found)
    planted = Counter(
        (number, corpus.mistake_of(number))
        for number in range(FUNCTIONS)
        if corpus.mistake_of(number) is not None
    )
    assert located == planted
