"""The narrowed check (``checker/core/narrowing.py``) gives exactly the whole file's findings.

libcst sees only the definitions (and methods of the classes kept) CPython's tree leaves
a finding in; the rest become string placeholders on the same lines. These tests run every
rule's examples with definitions that hold nothing around them, and methods that hold
nothing around the methods of their classes, both ways, and compare everything a user sees
(positions, messages, severities, fix edits); and they check that the narrowing did
happen, inside classes too, so that the comparison is not between two whole-file checks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ivycheck.checker.base.diagnostics import Diagnostic, Fix
from ivycheck.checker.core import engine, narrowing
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Example, FileUnderCheck, Rule
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))

_PLAIN = '''

def helper_{n}(x, y=1):
    """Nothing here for any rule: a plain function."""
    total = x + y
    return total * 2

'''


def _with_plain_definitions(code: str) -> str:
    """The example between plain definitions (after its first statement, which is never
    replaced: a string there would be a docstring), plain methods first and last in each
    of its top-level classes, and a comment after it all."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code  # IVY000's examples: the file is one finding, nothing is narrowed
    if not tree.body:
        return code
    code = "".join(_with_plain_methods(code.splitlines(keepends=True), tree))
    lines = code.splitlines(keepends=True)
    first_end = ast.parse(code).body[0].end_lineno or 1
    head, tail = "".join(lines[:first_end]), "".join(lines[first_end:])
    plain = _PLAIN.format(n=1), _PLAIN.format(n=2), _PLAIN.format(n=3)
    return head + plain[0] + tail + plain[1] + plain[2] + "# a comment after the last statement\n"


_PLAIN_METHOD = """\
{indent}def plain_method_{n}(self, x, y=1):
{indent}    \"\"\"Nothing here for any rule: a plain method.\"\"\"
{indent}    return (x + y) * 2

"""


def _with_plain_methods(lines: list[str], tree: ast.Module) -> list[str]:
    """``lines`` with a plain method before the first statement of each top-level class
    (after its docstring) and one after its last: the example's own methods are then
    never the first statement, which stays whatever the rules say."""
    inserts: list[tuple[int, str]] = []
    for statement in tree.body:
        if not isinstance(statement, ast.ClassDef) or statement.body[0].lineno == statement.lineno:
            continue  # (``class A: x = 1``: no line to put a method on)
        body = statement.body
        docstring = ast.get_docstring(statement, clean=False) is not None
        first = body[1] if docstring and len(body) > 1 else body[0]
        start = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))])
        indent = lines[start - 1][: len(lines[start - 1]) - len(lines[start - 1].lstrip())]
        inserts.append((start - 1, _PLAIN_METHOD.format(indent=indent, n=1)))
        inserts.append(
            (body[-1].end_lineno or start, "\n" + _PLAIN_METHOD.format(indent=indent, n=2))
        )
    result = list(lines)
    for at, text in sorted(inserts, reverse=True):
        result[at:at] = [text]
    return result


def _check(example: Example, source: str, select: tuple[str, ...]) -> list[Diagnostic]:
    files = {example.path: source, **example.files}
    index = ProjectIndex.build(
        summarize(text, path, CONFIG.part_of(path)) for path, text in files.items()
    )
    return check_source(
        source,
        path=example.path,
        config=CONFIG.with_overrides(select=select),
        rules=RULES,
        index=index,
        relative_path=example.path,
    )


def _seen(diagnostics: list[Diagnostic]) -> list[tuple[Diagnostic, Fix | None]]:
    """What a user sees of each finding: ``Diagnostic`` equality leaves the fix out."""
    return [(diagnostic, diagnostic.fix) for diagnostic in diagnostics]


def _cases() -> list[object]:
    return [
        pytest.param(rule, example, id=f"{rule.CODE}-{kind}-{number}")
        for rule in RULES
        for kind in ("VALID", "INVALID")
        for number, example in enumerate(getattr(rule, kind))
    ]


@pytest.mark.parametrize(("rule", "example"), _cases())
def test_narrowed_check_finds_what_the_whole_file_check_finds(
    rule: type[Rule], example: Example, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _with_plain_definitions(example.code)
    for select in ((rule.CODE,), ("IVY",)):
        whole = _whole_file(example, source, select, monkeypatch)
        found, _ = _narrowed(example, source, select, monkeypatch)
        assert _seen(found) == _seen(whole)


def _narrowed(
    example: Example, source: str, select: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Diagnostic], list[narrowing.NarrowedText | None]]:
    """The check as the engine runs it, with the narrowed texts it made."""
    made: list[narrowing.NarrowedText | None] = []

    def spy(
        file: FileUnderCheck, tree: ast.Module, rules: list[type[Rule]]
    ) -> narrowing.NarrowedText | None:
        made.append(narrowing.narrowed(file, tree, rules))
        return made[-1]

    monkeypatch.setattr(engine, "narrowed", spy)
    return _check(example, source, select), made


def _whole_file(
    example: Example, source: str, select: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> list[Diagnostic]:
    monkeypatch.setattr(engine, "narrowed", lambda *args: None)
    return _check(example, source, select)


def _narrowing_done(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[set[str], set[tuple[str, str]]]:
    """The rules whose examples (as the comparison above checks them) were narrowed, and
    the (rule, example) whose check replaced methods of a class that stayed. Made here,
    not gathered by the comparison: run in parallel, it may run in another process."""
    narrowed: set[str] = set()
    inside_classes: set[tuple[str, str]] = set()
    for rule in RULES:
        for example in (*rule.VALID, *rule.INVALID):
            source = _with_plain_definitions(example.code)
            for select in ((rule.CODE,), ("IVY",)):
                _, made = _narrowed(example, source, select, monkeypatch)
                if any(m is not None for m in made):
                    narrowed.add(rule.CODE)
                if any(m is not None and m.methods_left_out for m in made):
                    inside_classes.add((rule.CODE, example.code))
    return narrowed, inside_classes


def test_the_comparison_above_ran_narrowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rule's examples were narrowed at least once (a test that compared two
    whole-file checks would pass whatever the narrowing did)."""
    narrowed, _ = _narrowing_done(monkeypatch)
    expected = {rule.CODE for rule in RULES if rule.INVALID and engine._asks_tree(rule)}
    assert expected - narrowed == set()
