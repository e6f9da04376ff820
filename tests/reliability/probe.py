"""A rule that is relevant everywhere, so the sweep exercises the fix renderer on every file.

The built-in rules look only at Ivy-style files; run alone over the standard library they
would test little more than ``ast.parse``. This probe reports every ``return`` and the
first function of each file with a fix renaming it, so the engine renders one fix (libcst
over that function's top-level statement) per file.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, FixSafety
from ivycheck.checker.base.sourcefile import SourceError, read_source
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.fix_render import replace_node
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import FileUnderCheck, Finding, Rule
from ivycheck.checker.project.config import Config
from ivycheck.rules._ast_source import Lines


class Probe(Rule):
    """Reports the first function (with a fix renaming it) and every ``return``."""

    CODE = "ZZZ901"
    NAME = "reliability-probe"
    MESSAGE = "probe"
    FIX_SAFETY = FixSafety.SAFE

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        lines = Lines(file.source)
        renamed = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and not renamed:
                renamed = True
                line, column = lines.name_position(node)
                yield Finding(
                    line,
                    column,
                    line,
                    column + len(node.name),
                    cls.MESSAGE,
                    fix_description="Rename",
                    fix_data=(line, column),
                )
            elif isinstance(node, ast.Return):
                column = lines.column(node.lineno, node.col_offset)
                yield Finding(node.lineno, column, node.lineno, column + 6, cls.MESSAGE)

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        def rename(node: cst.FunctionDef) -> cst.FunctionDef:
            return node.with_changes(name=cst.Name(node.name.value + "_probe"))

        return replace_node(file.source, file.tree, finding.fix_data, cst.FunctionDef, rename)


RULES: list[type[Rule]] = [*all_rules().values(), Probe]

# The parts of the code base a file can play: rules look at different things in each.
PARTS = (
    None,
    "ivy/functional/ivy/{name}",
    "ivy/functional/backends/numpy/{name}",
    "ivy/functional/backends/tensorflow/{name}",
    "ivy/data_classes/array/{name}",
)


def check_as(path: Path, config: Config, parts: tuple[str | None, ...] = PARTS) -> list[str]:
    """Check one real file as each of ``parts``; return what is wrong (empty: fine)."""
    try:
        text = read_source(path).text
    except SourceError:
        return []  # the runner reports it as IVY000 (tested in test_filesystem.py)
    wrong: list[str] = []
    for part in parts:
        relative = part.format(name=path.name) if part else path.name
        try:
            found = check_source(
                text, path=str(path), config=config, rules=RULES, relative_path=relative
            )
        except Exception as err:  # noqa: BLE001 - this is exactly what the test looks for
            wrong.append(f"{path} as {relative}: raised {type(err).__name__}: {err}")
            continue
        wrong += [f"{path} as {relative}: {d.code} {d.message}" for d in found if _bad(d)]
    return wrong


def _bad(diagnostic: Diagnostic) -> bool:
    return diagnostic.code == "IVY999"
