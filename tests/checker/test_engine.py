"""The engine's promises: never crash on a file, isolate failing rules, keep suppressions."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from ivycheck.checker.core.engine import check_source, fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import FileUnderCheck, Finding, Rule
from ivycheck.checker.project.config import Config
from tests.helpers import run_ivycheck, write_tree

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))
API = "ivy/functional/ivy/x.py"


class ExplodingRule(Rule):
    """Raises on every function, to prove that one rule cannot take the others down."""

    CODE = "TST001"
    NAME = "exploding"
    MESSAGE = "never reported"

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                raise ZeroDivisionError("boom")
        yield from ()


def test_exception_in_one_rule_is_ivy999_and_other_rules_still_report() -> None:
    source = "@handle_out_argument\n@handle_view\ndef f(x, *, out=None):\n    ...\n"
    found = check_source(source, path=API, config=CONFIG, rules=[*RULES, ExplodingRule])
    codes = [d.code for d in found]
    assert "IVY005" in codes and "IVY006" in codes
    [internal] = [d for d in found if d.code == "IVY999"]
    assert "rule TST001 (exploding) failed: ZeroDivisionError: boom" in internal.message


def test_deeply_nested_file_is_a_diagnostic_not_a_crash() -> None:
    source = "x = " + "(" * 3000 + "1" + ")" * 3000 + "\n@handle_view\ndef f(x):\n    ...\n"
    found = check_source(source, path=API, config=CONFIG, rules=RULES)
    assert found, "a file nested this deeply is reported, not silently passed"
    assert all(d.code in {"IVY000", "IVY999", "IVY006"} for d in found)


def test_long_flat_file_with_many_functions_is_fine() -> None:
    body = "".join(
        f"@handle_out_argument\n@to_native_arrays_and_back\ndef f{i}(x, *, out=None):\n"
        f"    return x\n\n"
        for i in range(2000)
    )
    assert check_source(body, path=API, config=CONFIG, rules=RULES) == []


def test_noqa_inside_a_string_does_not_suppress() -> None:
    source = '@to_native_arrays_and_back\n@handle_out_argument\ndef f(x="# noqa"):\n    ...\n'
    assert [d.code for d in check_source(source, path=API, config=CONFIG, rules=RULES)] == [
        "IVY005"
    ]


def test_noqa_code_list_with_spaces_and_lowercase() -> None:
    source = "@to_native_arrays_and_back\n@handle_out_argument  # NOQA:ivy006, ivy005\ndef f(x):\n    ...\n"
    assert check_source(source, path=API, config=CONFIG, rules=RULES) == []


def test_syntax_error_position_and_message_come_from_cpython() -> None:
    [found] = check_source("x = (1,\n", path=API, config=CONFIG, rules=RULES)
    assert (found.code, found.line, found.col) == ("IVY000", 1, 5)
    assert "never closed" in found.message


def test_syntax_error_reported_even_when_no_rule_is_relevant() -> None:
    [found] = check_source("def f(:\n", path="other.py", config=CONFIG, rules=RULES)
    assert found.code == "IVY000"


def test_syntax_errors_shown_unless_explicitly_ignored() -> None:
    selected = CONFIG.with_overrides(select=("IVY005",))
    assert [d.code for d in check_source("(", path=API, config=selected, rules=RULES)] == ["IVY000"]
    ignored = CONFIG.with_overrides(ignore=("IVY000",))
    assert check_source("(", path=API, config=ignored, rules=RULES) == []


def test_overlapping_fixes_converge_over_rounds() -> None:
    source = (
        "@handle_out_argument\n@handle_view\n@handle_nestable\n@handle_exceptions\n"
        "def f(x, *, out=None):\n    ...\n"
    )
    outcome = fix_source(source, path=API, config=CONFIG, rules=RULES)
    assert outcome.source == (
        "@handle_exceptions\n@handle_nestable\n@handle_view\n@handle_out_argument\n"
        "def f(x, *, copy=None, out=None):\n    ...\n"
    )
    assert outcome.diagnostics == []


def test_selection_most_specific_prefix_wins() -> None:
    config = CONFIG.with_overrides(select=("IVY",), ignore=("IVY00",), extend_select=("IVY005",))
    assert config.is_enabled("IVY005", "x.py")
    assert not config.is_enabled("IVY006", "x.py")
    assert config.is_enabled("IVY010", "x.py")


def test_parts_follow_real_ivy_and_our_layout() -> None:
    assert CONFIG.part_of("ivy/functional/ivy/elementwise.py") == "functional"
    assert CONFIG.part_of("ivy/functional/backends/torch/general.py") == "backend:torch"
    assert CONFIG.part_of("ivy/functional/backends/jax/sub/x.py") == "backend:jax"
    assert CONFIG.part_of("ivy/functional/frontends/numpy/x.py") == "frontend"
    assert CONFIG.part_of("ivy/data_classes/array/array.py") == "data_classes"
    assert CONFIG.part_of("runtime/backends/tensorflow/x.py") == "backend:tensorflow"
    assert CONFIG.part_of("runtime/functional/elementwise.py") == "functional"
    assert CONFIG.part_of("setup.py") == "other"


PLUGIN = '''
import ast

from ivycheck.checker.rule_api import Finding, Rule


class CrashingRule(Rule):
    """A third-party rule that crashes."""

    CODE = "EXT001"
    NAME = "crashing-plugin"
    MESSAGE = "never shown"

    @classmethod
    def check(cls, tree, file):
        raise RuntimeError("plugin bug")


class NamingRule(Rule):
    """A third-party rule that works: functions named `bad` are reported."""

    CODE = "EXT002"
    NAME = "no-bad-names"
    MESSAGE = "do not call a function `bad`"

    @classmethod
    def check(cls, tree, file):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "bad":
                yield Finding(node.lineno, 4, node.lineno, 7, cls.MESSAGE)
'''


def test_entry_point_plugins_run_and_a_crashing_one_is_ivy999(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write_tree(
        site,
        {
            "ext_rules.py": PLUGIN,
            "ext_rules-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: ext-rules\nVersion: 1.0\n",
            "ext_rules-1.0.dist-info/entry_points.txt": "[ivycheck.rules]\next = ext_rules\n",
        },
    )
    project = write_tree(
        tmp_path / "project",
        {"pyproject.toml": "[tool.ivycheck]\n", "m.py": "def bad():\n    pass\n"},
    )
    done = run_ivycheck(".", "--no-cache", cwd=project, env={"PYTHONPATH": str(site)})
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "m.py:1:1: IVY999 rule EXT001 (crashing-plugin) failed: RuntimeError: plugin bug "
        "(in check, ext_rules.py:16)"
    )
    assert lines[1] == "m.py:1:5: EXT002 do not call a function `bad`"
    assert "Traceback" not in done.stderr
    listed = run_ivycheck("--list-rules", cwd=project, env={"PYTHONPATH": str(site)})
    assert "EXT002  no-bad-names" in listed.stdout


class OutKeywordRule(Rule):
    """Looks only at files that pass ``out=`` somewhere (its text test, not its check)."""

    CODE = "TST002"
    NAME = "out-keyword"
    MESSAGE = "never reported"
    TRIGGERS = ("out=", "handle_view")


def test_a_trigger_counts_only_at_the_start_of_a_word() -> None:
    relevant = [
        "f(out=x)",
        "out=1",
        "timeout=1; f(out=2)",  # a later occurrence at a word start
        "g(x, (out=1))",
        "@handle_view_indexing",  # triggers are prefixes
    ]
    not_relevant = [
        "f(timeout=1)",
        "f(_out=1)",
        "f(x1out=1)",
        "f(éout=1)",  # a letter outside ASCII is a word character too
        "f(x٣out=1)",  # and so is a digit of another script
        "unhandle_view()",
        "",
    ]
    assert [OutKeywordRule.is_relevant(s, CONFIG) for s in relevant] == [True] * len(relevant)
    assert [OutKeywordRule.is_relevant(s, CONFIG) for s in not_relevant] == [False] * len(
        not_relevant
    )
