"""Code quoted in a finding's message, on one line.

A finding is one line in every flake8-style report (``path:line:col: CODE message``, the
GitHub and GitLab annotations, editors' problem lists): code quoted from several lines
(an annotation or a value broken across lines) is joined with single spaces there, so the
message never breaks the report's lines. Code on one line is quoted exactly as written.
"""

from __future__ import annotations


def quoted(code: str) -> str:
    """``code`` as a message quotes it: its lines stripped and joined with one space."""
    if "\n" not in code and "\r" not in code:
        return code
    return " ".join(part for line in code.splitlines() if (part := line.strip()))
