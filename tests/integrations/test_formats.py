"""CI formats (JUnit, GitLab Code Quality, SARIF) and the generated rule documentation."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
from junitparser import Failure, JUnitXml

from tests.helpers import REPO, run_ivycheck, write_tree

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""

NO_COPY = """\
@handle_view
def flip(x, /, *, axis=None, out=None):
    return current_backend(x).flip(x, axis=axis, out=out)
"""


def _project(project: Path) -> Path:
    api = "ivy/functional/ivy"
    return write_tree(project, {f"{api}/a.py": BAD_ORDER, f"{api}/b.py": NO_COPY + BAD_ORDER})


def test_junit_is_parsed_by_a_junit_parser(project: Path) -> None:
    _project(project)
    done = run_ivycheck("--no-cache", "--format", "junit", ".", cwd=project)
    assert done.returncode == 1
    report = project / "report.xml"
    report.write_text(done.stdout, encoding="utf-8")
    xml = JUnitXml.fromfile(str(report))
    suites = {suite.name: suite for suite in xml}
    assert sorted(suites) == ["ivy/functional/ivy/a.py", "ivy/functional/ivy/b.py"]
    assert (xml.tests, xml.failures, xml.errors) == (3, 3, 0)
    cases = [case for suite in xml for case in suite]
    failures = [result for case in cases for result in case.result]
    assert all(isinstance(result, Failure) for result in failures)
    assert sorted(result.type for result in failures) == ["IVY005", "IVY005", "IVY006"]
    assert cases[0].name == "IVY005 at 2:1"
    assert failures[0].text.startswith("ivy/functional/ivy/a.py:2:1: IVY005 ")


def test_junit_clean_run_is_one_passing_case(project: Path) -> None:
    done = run_ivycheck("--no-cache", "--format", "junit", ".", cwd=project)
    assert done.returncode == 0
    root = ET.fromstring(done.stdout)
    assert root.tag == "testsuites"
    assert [(s.get("tests"), s.get("failures")) for s in root] == [("1", "0")]


def test_gitlab_code_quality(project: Path) -> None:
    _project(project)
    done = run_ivycheck("--no-cache", "--format", "gitlab", ".", cwd=project)
    assert done.returncode == 1
    issues = json.loads(done.stdout)
    assert [(i["check_name"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("IVY005", 2),
        ("IVY006", 2),
        ("IVY005", 5),
    ]
    for issue in issues:
        assert issue["description"].startswith(issue["check_name"] + " ")
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["location"]["path"].startswith("ivy/functional/ivy/")
    fingerprints = [i["fingerprint"] for i in issues]
    assert len(set(fingerprints)) == len(fingerprints)
    # A finding keeps its fingerprint when the code above it moves.
    target = project / "ivy/functional/ivy/a.py"
    target.write_text("\n\n" + target.read_text())
    moved = json.loads(run_ivycheck("--no-cache", "--format", "gitlab", ".", cwd=project).stdout)
    assert [i["fingerprint"] for i in moved] == fingerprints


def test_sarif_validates_against_the_shipped_schema_on_examples() -> None:
    done = run_ivycheck("--no-cache", "--format", "sarif", "examples/", cwd=REPO)
    document = json.loads(done.stdout)
    schema = json.loads((REPO / "tests/schemas/sarif-2.1.0.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(document)
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    for rule in rules:
        assert rule["name"] and rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["help"]["markdown"] == rule["fullDescription"]["text"]
        assert "helpUri" not in rule
    assert len(document["runs"][0]["results"]) > 20


def test_markdown_only_with_list_rules(project: Path) -> None:
    done = run_ivycheck("--format", "markdown", ".", cwd=project)
    assert done.returncode == 2
    assert "--list-rules" in done.stderr


def test_docs_rules_md_is_up_to_date() -> None:
    from ivycheck.checker.core.registry import all_rules
    from ivycheck.checker.frontends.explain import MARKDOWN_COMMAND, rules_markdown

    generated = rules_markdown()
    committed = (REPO / "docs/rules.md").read_text(encoding="utf-8")
    assert committed == generated, f"docs/rules.md is out of date: run `{MARKDOWN_COMMAND}`"
    for code in all_rules():
        assert f'<a id="{code.lower()}"></a>' in committed
