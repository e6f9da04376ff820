"""IVY999: a rule (or the analysis of a file) failed."""

from __future__ import annotations

from ivycheck.checker.rule_api import Rule


class InternalErrorRule(Rule):
    """An exception inside one rule on one file, or a file the engine could not analyse.

    The run goes on: only that rule's findings for that file are lost, and this diagnostic
    names the rule and the exception so that it can be reported. It is never a finding
    about your code; please report it with the file that triggers it.
    """

    CODE = "IVY999"
    NAME = "internal-error"
    MESSAGE = "A rule failed on this file; its findings for the file are missing"
