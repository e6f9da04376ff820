"""Finding categories (correctness, performance, dead-code): carried by every diagnostic,
shown in every output format, kept by the cache, and selectable with ``--category`` or
``category = [...]``, composed with ``--select``/``--ignore``. Real ``ivycheck`` runs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from ivycheck.checker.core.rule import Category
from ivycheck.checker.project.config import CATEGORIES
from tests.helpers import REPO, run_ivycheck, write_tree

API = "ivy/functional/ivy/api.py"
NUMPY = "ivy/functional/backends/numpy/api.py"
FILES = {
    API: """\
        @to_native_arrays_and_back
        @handle_out_argument
        def cosh(x, /, *, out=None):
            return current_backend(x).cosh(x, out=out)


        def tanh(x, /):  # noqa: IVY005
            return current_backend(x).tanh(x)
        """,
    NUMPY: """\
        import numpy as np


        def cosh(x, /, *, out=None):
            return np.cosh(x, out=out)


        def tanh(x, /):
            return np.tanh(x)
        """,
}
EXPECTED = [
    (NUMPY, "IVY001", "performance"),
    (API, "IVY005", "correctness"),
    (API, "IVY100", "dead-code"),
]
"""IVY001 is a performance rule, IVY005 a correctness one, IVY100 (the unused noqa on
``tanh``, opted in) dead code."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_tree(tmp_path, FILES)
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ivycheck]\nextend-select = ['IVY100']\n", encoding="utf-8"
    )
    return tmp_path


def _run(project: Path, *args: str) -> str:
    done = run_ivycheck("--format", "json", "--exit-zero", "-q", *args, ".", cwd=project)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _found(project: Path, *args: str) -> list[tuple[str, str, str]]:
    return [(d["filename"], d["code"], d["category"]) for d in json.loads(_run(project, *args))]


def test_the_categories_are_the_rule_categories() -> None:
    assert tuple(category.value for category in Category) == CATEGORIES


def test_json_carries_the_category_and_matches_the_schema(project: Path) -> None:
    data = json.loads(_run(project, "--no-cache"))
    assert [(d["filename"], d["code"], d["category"]) for d in data] == EXPECTED
    schema = json.loads((REPO / "docs" / "json-output.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    data[0]["category"] = "style"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_the_cache_keeps_the_category(project: Path) -> None:
    cold, warm = _run(project), _run(project)
    assert (project / ".ivycheck_cache").is_dir()
    assert warm == cold
    assert [d["category"] for d in json.loads(warm)] == [c for *_, c in EXPECTED]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("--category", "performance"), [EXPECTED[0]]),
        (("--category", "correctness,dead-code"), EXPECTED[1:]),
        (("--category", "performance,correctness", "--select", "IVY005"), [EXPECTED[1]]),
        (("--category", "correctness,performance", "--ignore", "IVY001"), [EXPECTED[1]]),
        (("--category", "dead-code", "--ignore", "IVY100"), []),
    ],
)
def test_category_selector_composes_with_select_and_ignore(
    project: Path, args: tuple[str, ...], expected: list[tuple[str, str, str]]
) -> None:
    assert _found(project, "--no-cache", *args) == expected


def test_category_in_the_configuration_and_the_command_line_replacing_it(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        "[tool.ivycheck]\nextend-select = ['IVY100']\ncategory = ['performance']\n",
        encoding="utf-8",
    )
    assert _found(project) == [EXPECTED[0]]
    assert _found(project, "--category", "dead-code") == [EXPECTED[2]]  # cached run: the key
    assert _found(project) == [EXPECTED[0]]


def test_an_unknown_category_is_a_usage_error(project: Path) -> None:
    done = run_ivycheck("--category", "speed", ".", cwd=project)
    assert done.returncode == 2
    assert "unknown category 'speed'" in done.stderr
    (project / "pyproject.toml").write_text("[tool.ivycheck]\ncategory = ['Perf']\n")
    done = run_ivycheck(".", cwd=project)
    assert done.returncode == 2
    assert "category: unknown category 'perf'" in done.stderr


def test_sarif_level_and_property_follow_the_category(project: Path) -> None:
    done = run_ivycheck("--no-cache", "--format", "sarif", ".", cwd=project)
    run = json.loads(done.stdout)["runs"][0]
    results = [(r["ruleId"], r["level"], r["properties"]["category"]) for r in run["results"]]
    assert results == [
        ("IVY001", "warning", "performance"),
        ("IVY005", "error", "correctness"),
        ("IVY100", "note", "dead-code"),
    ]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["IVY001"]["properties"]["category"] == "performance"
    assert rules["IVY001"]["defaultConfiguration"]["level"] == "warning"
    assert rules["IVY005"]["defaultConfiguration"]["level"] == "error"
    schema = json.loads((REPO / "tests/schemas/sarif-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(done.stdout), schema)


def test_github_annotation_kind_and_title_follow_the_category(project: Path) -> None:
    lines = run_ivycheck("--no-cache", "--format", "github", ".", cwd=project).stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["::warning", "::error", "::notice"]
    assert lines[0].split("::")[2].startswith("IVY001 [performance] `cosh` forwards")


def test_junit_failures_name_the_category(project: Path) -> None:
    root = ET.fromstring(run_ivycheck("--no-cache", "--format", "junit", ".", cwd=project).stdout)
    cases = root.findall(".//testcase")
    categories = [case.find("properties/property[@name='category']") for case in cases]
    assert sorted(p.get("value", "") for p in categories if p is not None) == sorted(
        c for *_, c in EXPECTED
    )
    texts = [case.findtext("failure") or "" for case in cases]
    assert any(" IVY001 [performance] " in text for text in texts)


def test_gitlab_categories_follow_the_category(project: Path) -> None:
    issues = json.loads(run_ivycheck("--no-cache", "--format", "gitlab", ".", cwd=project).stdout)
    assert [(i["check_name"], i["categories"]) for i in issues] == [
        ("IVY001", ["Performance"]),
        ("IVY005", ["Bug Risk"]),
        ("IVY100", ["Clarity"]),
    ]
