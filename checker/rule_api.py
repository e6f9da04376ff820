"""Everything a rule author imports, in one place: ``from ivycheck.checker.rule_api import ...``.

A rule is a :class:`Rule` subclass (a libcst visitor) with its documentation and
:class:`Example` snippets; while it visits a file it reads :class:`RuleContext` (path, part
of the code base, :class:`Config`, the :class:`ProjectIndex` of every file's
:class:`FunctionSummary`) and calls :meth:`Rule.report`, with a :data:`Replacement` for a
fix whose :class:`FixSafety` the class declares next to its :class:`Severity`. Before any
of that, :meth:`Rule.may_find` may decide from CPython's tree of the
:class:`FileUnderCheck` that the file cannot hold a finding (then libcst never parses it), and :meth:`Rule.find_on_ast`
may decide its findings there (:class:`AstFinding`) when no fix text is wanted. A rule that
walks a subtree itself uses :func:`walk` (read-only and several times faster than
``node.visit``), :func:`children` or :func:`nodes_of` (every node of a type below a node).
``docs/writing-rules.md`` walks through a rule; the modules behind these names may move,
this surface stays.
"""

from __future__ import annotations

from ivycheck.checker.base.diagnostics import Edit, FixSafety, Severity
from ivycheck.checker.core.rule import (
    AstFinding,
    Category,
    Example,
    FileUnderCheck,
    Finding,
    Replacement,
    Rule,
    RuleContext,
)
from ivycheck.checker.core.walk import children, nodes_of
from ivycheck.checker.core.walk import visit as walk
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
    "AstFinding",
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
    "Replacement",
    "Rule",
    "RuleContext",
    "Severity",
    "children",
    "nodes_of",
    "walk",
]
