"""Everything a rule author imports, in one place: ``from ivycheck.checker.rule_api import ...``.

A rule is a :class:`Rule` subclass with its documentation and :class:`Example` snippets.
Its :meth:`Rule.check` reads CPython's tree of the :class:`FileUnderCheck` (its path, part
of the code base, :class:`Config` and the :class:`ProjectIndex` of every file's
:class:`FunctionSummary`) and yields :class:`Finding` s; a rule whose fix has a
:class:`FixSafety` renders it in :meth:`Rule.fix` as an :class:`Edit` (with
:func:`~ivycheck.checker.core.fix_render.replace_node`, imported there: libcst is loaded
only when a fix is rendered). ``docs/writing-rules.md`` walks through a rule; the modules
behind these names may move, this surface stays.
"""

from __future__ import annotations

from ivycheck.checker.base.diagnostics import Edit, FixSafety, Severity
from ivycheck.checker.core.rule import Category, Example, FileUnderCheck, Finding, Rule
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.conventions import DECORATOR_ALIASES
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import (
    DecoratorSummary,
    FunctionSummary,
    OutWrapperSummary,
)

__all__ = [
    "DECORATOR_ALIASES",
    "Category",
    "Config",
    "DecoratorSummary",
    "Edit",
    "Example",
    "FileUnderCheck",
    "Finding",
    "FixSafety",
    "FunctionSummary",
    "OutWrapperSummary",
    "ProjectIndex",
    "Rule",
    "Severity",
]
