"""One diagnostic of the JSON report as text, without building its dict first.

The report is ``json.dumps([d.to_json() for d in found], indent=2)``; on a file with
thousands of findings, making each finding's nested dicts and walking them again
(:mod:`~ivycheck.checker.frontends.indented_json`) cost about as much as rendering every
fix's text. The shape of a diagnostic is fixed, so its text is written here field by field,
the same bytes: strings through the C ``encode_basestring_ascii`` that :mod:`json` uses,
integers in decimal as :mod:`json` writes them. Where a field is not a plain ``str`` or
``int`` (a subclass, a value a caller built by hand), :func:`element` answers ``None`` and
the report takes the generic way, so the text never depends on which way was taken
(``tests/checker/test_diagnostic_json.py`` compares the two on generated diagnostics).
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii as _string

from ivycheck.checker.base.diagnostics import Diagnostic, Edit, Fix

ELEMENT_MARGIN = "\n  "
"""What precedes each element of the report's top-level list (``indent=2``)."""


def element(d: Diagnostic) -> str | None:
    """``d.to_json()`` as the report writes it inside its list (its first line not
    indented, the others two spaces deeper than at the top level), or ``None``."""
    code, message, severity, category, path = (
        d.code, d.message, d.severity.value, d.category, d.path
    )  # fmt: skip
    if not (
        type(code) is str and type(message) is str and type(severity) is str
        and type(category) is str and type(path) is str
        and type(d.line) is int and type(d.col) is int
        and type(d.end_line) is int and type(d.end_col) is int
    ):  # fmt: skip
        return None
    fix = _fix(d.fix) if d.fix is not None else "null"
    if fix is None:
        return None
    return (
        f'{{\n    "code": {_string(code)},\n    "message": {_string(message)},'
        f'\n    "severity": {_string(severity)},\n    "category": {_string(category)},'
        f'\n    "filename": {_string(path)},'
        f'\n    "location": {{\n      "row": {d.line:d},\n      "column": {d.col:d}\n    }},'
        f'\n    "end_location": {{\n      "row": {d.end_line:d},'
        f'\n      "column": {d.end_col:d}\n    }},'
        f'\n    "fix": {fix}\n  }}'
    )


def _fix(fix: Fix) -> str | None:
    description, safety = fix.description, fix.safety.value
    if type(description) is not str or type(safety) is not str:
        return None
    edits: list[str] = []
    for edit in fix.edits:
        text = _edit(edit)
        if text is None:
            return None
        edits.append(text)
    listed = "[\n        " + ",\n        ".join(edits) + "\n      ]" if edits else "[]"
    return (
        f'{{\n      "message": {_string(description)},'
        f'\n      "applicability": {_string(safety)},'
        f'\n      "edits": {listed}\n    }}'
    )


def _edit(edit: Edit) -> str | None:
    if not (
        type(edit.content) is str and type(edit.line) is int and type(edit.col) is int
        and type(edit.end_line) is int and type(edit.end_col) is int
    ):  # fmt: skip
        return None
    return (
        f'{{\n          "location": {{\n            "row": {edit.line:d},'
        f'\n            "column": {edit.col:d}\n          }},'
        f'\n          "end_location": {{\n            "row": {edit.end_line:d},'
        f'\n            "column": {edit.end_col:d}\n          }},'
        f'\n          "content": {_string(edit.content)}\n        }}'
    )
