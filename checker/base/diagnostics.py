"""The values that flow out of the engine: diagnostics and the text edits of their fixes.

They are plain frozen dataclasses so that they cross process boundaries (the process
pool), go into the result cache, and map one-to-one onto JSON, SARIF and LSP shapes
without the reporters knowing anything about libcst.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Severity(enum.StrEnum):
    """How bad a finding is; performance findings are warnings, correctness ones errors."""

    ERROR = "error"
    WARNING = "warning"


class FixSafety(enum.StrEnum):
    """Whether ``--fix`` may apply a fix unasked (safe) or only with ``--unsafe-fixes``."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between two 1-based (line, column) positions; end is exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int
    content: str

    def to_json(self) -> dict[str, Any]:
        return {
            "location": {"row": self.line, "column": self.col},
            "end_location": {"row": self.end_line, "column": self.end_col},
            "content": self.content,
        }


@dataclass(frozen=True, slots=True)
class Fix:
    """A rule's proposed change, already turned into text edits of the original source."""

    description: str
    safety: FixSafety
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.description,
            "applicability": self.safety.value,
            "edits": [edit.to_json() for edit in self.edits],
        }


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding at a 1-based line and column (columns as flake8 prints them)."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    code: str
    message: str
    severity: Severity = Severity.ERROR
    fix: Fix | None = field(default=None, compare=False)
    category: str = "correctness"
    """``correctness``, ``performance`` or ``dead-code`` (:class:`~ivycheck.checker.core.rule.Category`):
    what kind of problem this finding is, for ``--category`` and every output format."""

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.code)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "severity": self.severity.value,
            "category": self.category,
            "filename": self.path,
            "location": {"row": self.line, "column": self.col},
            "end_location": {"row": self.end_line, "column": self.end_col},
            "fix": self.fix.to_json() if self.fix else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Diagnostic:
        fix_data = data.get("fix")
        fix = None
        if fix_data:
            fix = Fix(
                description=fix_data["message"],
                safety=FixSafety(fix_data["applicability"]),
                edits=tuple(
                    Edit(
                        e["location"]["row"],
                        e["location"]["column"],
                        e["end_location"]["row"],
                        e["end_location"]["column"],
                        e["content"],
                    )
                    for e in fix_data["edits"]
                ),
            )
        return cls(
            path=data["filename"],
            line=data["location"]["row"],
            col=data["location"]["column"],
            end_line=data["end_location"]["row"],
            end_col=data["end_location"]["column"],
            code=data["code"],
            message=data["message"],
            severity=Severity(data["severity"]),
            fix=fix,
            category=data.get("category", "correctness"),
        )
