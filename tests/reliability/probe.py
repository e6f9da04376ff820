"""A rule that is relevant everywhere, so the sweep exercises the libcst path on every file.

The built-in rules look only at Ivy-style files and skip the libcst parse of anything else;
run alone over the standard library they would test little more than ``ast.parse``. This
probe makes the engine parse, build metadata-free positions for reported nodes, and compute
one fix (a codegen of the whole module) per file.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from ivycheck.checker.base.diagnostics import Diagnostic, FixSafety
from ivycheck.checker.base.sourcefile import SourceError, read_source
from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.core.rule import Rule
from ivycheck.checker.project.config import Config


class Probe(Rule):
    """Reports the first function (with a fix renaming it) and every ``return``."""

    CODE = "ZZZ901"
    NAME = "reliability-probe"
    MESSAGE = "probe"
    FIX_SAFETY = FixSafety.SAFE

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not any(r.replacement is not None for r in self.reports):
            renamed = node.with_changes(name=cst.Name(node.name.value + "_probe"))
            self.report(node, replacement=renamed)

    def visit_Return(self, node: cst.Return) -> None:
        self.report(node)


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
