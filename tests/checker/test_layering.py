"""The layers of ivycheck, as ``scripts/import_graph.py`` reads them: no import circle in
any part, and no import from a lower layer into a higher one (``LAYERS`` there: the
checker's ``base < project < noqa < core < rule_api < rules < run < frontends``, then the
language server). A circle or an upward import is what makes a module impossible to read,
test or start without the ones above it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import load_script

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def graph_script() -> ModuleType:
    return load_script(ROOT / "scripts/import_graph.py", "import_graph")


@pytest.fixture(scope="module")
def graph(graph_script: ModuleType) -> dict[str, set[str]]:
    result: dict[str, set[str]] = graph_script.import_graph(graph_script.read_modules(ROOT))
    return result


@pytest.mark.parametrize("part", ["checker", "rules", "lsp", "runtime"])
def test_no_import_circle(graph_script: ModuleType, graph: dict[str, set[str]], part: str) -> None:
    circles = [
        circle
        for circle in graph_script.import_circles(graph)
        if any(m.startswith(f"ivycheck.{part}") for m in circle)
    ]
    assert circles == []


def test_no_import_against_the_layer_order(
    graph_script: ModuleType, graph: dict[str, set[str]]
) -> None:
    assert graph_script.layer_violations(graph) == []


def test_every_checker_module_is_in_a_layer(
    graph_script: ModuleType, graph: dict[str, set[str]]
) -> None:
    """A module added beside the layers would escape the order."""
    loose = [
        name
        for name in graph
        if name.startswith("ivycheck.checker.") and graph_script.layer_of(name) is None
    ]
    assert loose == []


def test_the_check_sees_a_circle_and_an_upward_import(graph_script: ModuleType) -> None:
    made_up = {
        "ivycheck.checker.base.a": {"ivycheck.checker.core.b"},
        "ivycheck.checker.core.b": {"ivycheck.checker.base.a"},
    }
    assert graph_script.import_circles(made_up) == [
        ["ivycheck.checker.base.a", "ivycheck.checker.core.b"]
    ]
    assert graph_script.layer_violations(made_up) == [
        ("ivycheck.checker.base.a", "ivycheck.checker.core.b")
    ]


def test_no_checker_module_imports_the_language_server(graph: dict[str, set[str]]) -> None:
    upward = {
        name: sorted(t for t in targets if t.startswith("ivycheck.lsp"))
        for name, targets in graph.items()
        if name.startswith("ivycheck.checker")
        and any(t.startswith("ivycheck.lsp") for t in targets)
    }
    assert upward == {}


def test_ivycheck_lsp_still_starts_the_language_server() -> None:
    """``ivycheck lsp`` is dispatched by the top-level command, above checker and server."""
    done = subprocess.run(
        [sys.executable, "-m", "ivycheck", "lsp", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: ivycheck lsp" in done.stdout
    assert "--tcp" in done.stdout
