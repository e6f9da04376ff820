"""Output formats: text (flake8 style), JSON, SARIF 2.1.0, GitHub workflow commands, JUnit
XML and GitLab Code Quality (Code Climate JSON).

Each reporter is a pure function from diagnostics to text, so that the CLI, tests and
other front ends share them. The text format is exactly flake8's
``path:line:col: CODE message`` so that editors and CI problem matchers that understand
flake8 understand ivycheck.

Invariant: any file name gives a well-formed report that encodes as UTF-8, and no name can
forge a line or recolour a terminal. A name is whatever bytes the filesystem holds (an
undecodable byte arrives as a lone surrogate, Python's ``surrogateescape``): text and JUnit
(and GitHub annotations) quote a name holding a control, format or undecodable character as
git does (C-style, in double quotes, other bytes in octal); JSON adds the exact bytes beside a
lossy name, SARIF percent-encodes the URI, GitLab writes the lossy name
(``docs/json-output.schema.json`` and the README say how to get the bytes back).
"""

from __future__ import annotations

import base64
import hashlib
import os
import unicodedata
import urllib.parse
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ivycheck import __version__
from ivycheck.checker.base.diagnostics import Diagnostic, Severity
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.frontends import diagnostic_json
from ivycheck.checker.frontends.indented_json import dumps_indented

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


_C_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls (ESC, newline, C1), format characters (bidirectional overrides, which reorder
what a terminal shows), surrogates (undecodable bytes), private-use and unassigned
characters, and line or paragraph separators: none printed as they are."""


def _unsafe(char: str) -> bool:
    return unicodedata.category(char) in _UNSAFE_CATEGORIES


def _safe(text: str) -> bool:
    """No character of ``text`` is :func:`_unsafe`. Printable ASCII (the usual message
    and name) is answered without looking up each character's category: a report of
    thousands of findings spent a tenth of a second there."""
    if text.isascii() and text.isprintable():
        return True
    return not any(_unsafe(char) for char in text)


def _utf8(char: str) -> bytes:
    """The bytes a character of a file name stands for: an undecodable byte for a
    ``surrogateescape`` surrogate, else its UTF-8 (a stray surrogate's too)."""
    try:
        return char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return char.encode("utf-8", "surrogatepass")


def quote_name(path: str) -> str:
    """``path`` as it is when every character prints safely (and it does not start with
    ``"``); else in double quotes with C escapes (``\\n``, ``\\t``, ``\\"``, ``\\\\``) and
    each byte of any other unsafe character in octal (ESC is ``\\033``, an undecodable byte
    0xff ``\\377``), as ``git`` quotes names: unquoting gives the bytes back."""
    if not path.startswith('"') and _safe(path):
        return path
    escaped = "".join(
        _C_ESCAPES.get(char)
        or ("".join(f"\\{byte:03o}" for byte in _utf8(char)) if _unsafe(char) else char)
        for char in path
    )
    return f'"{escaped}"'


def _printable(text: str) -> str:
    """``text`` (a message) with its unsafe characters C-escaped, no quotes added."""
    if _safe(text):
        return text
    return "".join(
        (_C_ESCAPES.get(char) or "".join(f"\\{b:03o}" for b in _utf8(char)))
        if _unsafe(char)
        else char
        for char in text
    )


def name_bytes(path: str) -> bytes:
    """The file name's bytes, as the filesystem holds them (a stray surrogate, which no
    filesystem gave, as its UTF-8)."""
    try:
        return os.fsencode(path)
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogatepass")


def _lossy(path: str) -> str:
    """``path`` as valid Unicode: each undecodable byte (or stray surrogate) becomes U+FFFD."""
    if path.isascii():
        return path
    return "".join("\ufffd" if unicodedata.category(char) == "Cs" else char for char in path)


def _is_exact(path: str) -> bool:
    return _lossy(path) == path


class Colors:
    """ANSI colours, or nothing (not a terminal, or ``NO_COLOR`` set)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def red(self, text: str) -> str:
        return self._wrap("1;31", text)

    def cyan(self, text: str) -> str:
        return self._wrap("36", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)


def format_text(
    diagnostics: Sequence[Diagnostic],
    *,
    colors: Colors,
    show_source: bool = False,
    read_line: Callable[[str, int], str | None] | None = None,
    fixable: Callable[[Diagnostic], bool] | None = None,
) -> str:
    """flake8's lines; a finding whose fix ``--fix`` would apply (``fixable``) is marked
    ``[*]`` after its code, as Ruff marks it. Names are quoted as ``git`` quotes them
    (:func:`quote_name`)."""
    lines: list[str] = []
    for d in diagnostics:
        name = colors.bold(quote_name(d.path))
        location = f"{name}{colors.cyan(':')}{d.line}{colors.cyan(':')}{d.col}"
        marker = f" {colors.cyan('[*]')}" if fixable is not None and fixable(d) else ""
        message = _printable(d.message)
        lines.append(f"{location}{colors.cyan(':')} {colors.red(d.code)}{marker} {message}")
        if show_source and read_line is not None:
            source_line = read_line(d.path, d.line)
            if source_line is not None:
                lines.append(source_line)
                caret_at = len(source_line[: d.col - 1].expandtabs())
                lines.append(" " * caret_at + colors.red("^"))
    return "".join(line + "\n" for line in lines)


def format_json(diagnostics: Sequence[Diagnostic]) -> str:
    """The diagnostics' JSON; a name holding undecodable bytes is written with U+FFFD for
    each, and its exact bytes in ``filename_bytes`` (base64), so that the document is valid
    UTF-8 and the name can be had back."""
    if not diagnostics:
        return "[]\n"
    elements = []
    for d in diagnostics:
        text = diagnostic_json.element(d) if _is_exact(d.path) else None
        if text is None:  # a lossy name, or a field no plain str or int: the generic way
            text = dumps_indented(_json_diagnostic(d)).replace("\n", diagnostic_json.ELEMENT_MARGIN)
        elements.append(text)
    between = "," + diagnostic_json.ELEMENT_MARGIN
    return "[" + diagnostic_json.ELEMENT_MARGIN + between.join(elements) + "\n]\n"


def _json_diagnostic(d: Diagnostic) -> dict[str, Any]:
    found = d.to_json()
    if not _is_exact(d.path):
        found["filename"] = _lossy(d.path)
        found["filename_bytes"] = base64.b64encode(name_bytes(d.path)).decode("ascii")
    return found


_LEVELS = {"correctness": "error", "performance": "warning", "dead-code": "note"}
"""SARIF level (and GitHub annotation kind) per category: only a correctness finding is
an error; performance ones warnings, dead code notes."""


def _sarif_level(category: str) -> str:
    return _LEVELS.get(category, "error")


def _sarif_rule(code: str) -> dict[str, Any]:
    """The rule's whole documentation inline (``help``), and no ``helpUri``: the project
    names no public home, and a link to a guessed one would be a dead or wrong link."""
    rule = all_rules().get(code)
    if rule is None:
        return {"id": code, "name": code, "shortDescription": {"text": code}}
    explanation = rule.explanation()
    return {
        "id": code,
        "name": rule.NAME,
        "shortDescription": {"text": rule.MESSAGE},
        "fullDescription": {"text": explanation},
        "help": {"text": explanation, "markdown": explanation},
        "defaultConfiguration": {"level": _sarif_level(rule.CATEGORY.value)},
        "properties": {"fixable": rule.FIX_SAFETY is not None, "category": rule.CATEGORY.value},
    }


def _artifact_uri(path: str) -> str:
    """A URI reference (RFC 3986): the name's bytes percent-encoded where they are not
    plain characters (a space, ``%``, ``#``, an undecodable byte), so that it parses and
    ``urllib.parse.unquote_to_bytes`` gives the bytes back."""
    candidate = Path(path)
    if candidate.is_absolute():
        return candidate.as_uri()
    return urllib.parse.quote(name_bytes(candidate.as_posix()), safe="/")


def format_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    codes = sorted({*all_rules(), *(d.code for d in diagnostics)})
    rule_index = {code: number for number, code in enumerate(codes)}
    results = []
    for d in diagnostics:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": rule_index[d.code],
            "level": _sarif_level(d.category),
            "message": {"text": d.message},
            "properties": {"category": d.category},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _artifact_uri(d.path)},
                        "region": {
                            "startLine": d.line,
                            "startColumn": d.col,
                            "endLine": d.end_line,
                            "endColumn": d.end_col,
                        },
                    }
                }
            ],
        }
        if d.fix is not None:
            result["fixes"] = [
                {
                    "description": {"text": d.fix.description},
                    "artifactChanges": [
                        {
                            "artifactLocation": {"uri": _artifact_uri(d.path)},
                            "replacements": [
                                {
                                    "deletedRegion": {
                                        "startLine": e.line,
                                        "startColumn": e.col,
                                        "endLine": e.end_line,
                                        "endColumn": e.end_col,
                                    },
                                    "insertedContent": {"text": e.content},
                                }
                                for e in d.fix.edits
                            ],
                        }
                    ],
                }
            ]
        results.append(result)
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "ivycheck",
                        "version": __version__,
                        "rules": [_sarif_rule(code) for code in codes],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
    return dumps_indented(document) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(diagnostics: Sequence[Diagnostic]) -> str:
    lines = []
    for d in diagnostics:
        kind = {"note": "notice"}.get(_sarif_level(d.category), _sarif_level(d.category))
        properties = ",".join(
            [
                f"title={_escape_property(f'ivycheck ({d.code})')}",
                f"file={_escape_property(quote_name(d.path))}",
                f"line={d.line}",
                f"col={d.col}",
                f"endLine={d.end_line}",
                f"endColumn={d.end_col}",
            ]
        )
        text = f"{d.code} [{d.category}] {d.message}"
        lines.append(f"::{kind} {properties}::{_escape_data(text)}\n")
    return "".join(lines)


def format_junit(diagnostics: Sequence[Diagnostic]) -> str:
    """JUnit XML: one test suite per file, one failed test case per finding.

    A clean run is one passing test case, so that CI shows "1 test passed" rather than
    an empty report. Names are quoted as in the text format: XML 1.0 has no way to write
    ESC or an undecodable byte, even as a character reference.
    """
    import xml.etree.ElementTree as ET  # (here: only this format needs it)

    root = ET.Element("testsuites", name="ivycheck")
    by_file: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_file.setdefault(quote_name(d.path), []).append(d)
    if not by_file:
        suite = ET.SubElement(root, "testsuite", name="ivycheck", tests="1", failures="0")
        suite.set("errors", "0")
        ET.SubElement(suite, "testcase", name="ivycheck", classname="ivycheck")
    for path, found in by_file.items():
        suite = ET.SubElement(
            root, "testsuite", name=path, tests=str(len(found)), failures=str(len(found))
        )
        suite.set("errors", "0")
        for d in found:
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{d.code} at {d.line}:{d.col}",
                classname=path,
                file=path,
                line=str(d.line),
            )
            message = _printable(d.message)
            failure = ET.SubElement(case, "failure", message=message, type=d.code)
            failure.text = f"{path}:{d.line}:{d.col}: {d.code} [{d.category}] {message}"
            properties = ET.SubElement(case, "properties")
            ET.SubElement(properties, "property", name="category", value=d.category)
    root.set("tests", str(max(len(diagnostics), 1)))
    root.set("failures", str(len(diagnostics)))
    root.set("errors", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


_GITLAB_SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor"}
_GITLAB_CATEGORY = {"correctness": "Bug Risk", "performance": "Performance", "dead-code": "Clarity"}
"""Code Climate's categories for ours."""


def format_gitlab(diagnostics: Sequence[Diagnostic]) -> str:
    """GitLab Code Quality: Code Climate issues, as a JSON list.

    The fingerprint hashes path, code and message (not the line, so that a finding keeps
    its identity when code above it moves) plus the finding's rank among identical ones;
    the path's bytes, so that an undecodable name neither raises nor collides. The path
    shown has U+FFFD for an undecodable byte (Code Climate has no field for bytes).
    """
    seen: Counter[tuple[str, str, str]] = Counter()
    issues = []
    for d in diagnostics:
        key = (d.path, d.code, d.message)
        seen[key] += 1
        identity = (name_bytes(d.path), d.code.encode(), d.message.encode(), b"%d" % seen[key])
        fingerprint = hashlib.sha256(b"\0".join(identity)).hexdigest()
        issues.append(
            {
                "type": "issue",
                "description": f"{d.code} {d.message}",
                "check_name": d.code,
                "categories": [_GITLAB_CATEGORY.get(d.category, "Bug Risk")],
                "fingerprint": fingerprint,
                "severity": _GITLAB_SEVERITY[d.severity],
                "location": {
                    "path": _lossy(Path(d.path).as_posix()),
                    "lines": {"begin": d.line, "end": d.end_line},
                },
            }
        )
    return dumps_indented(issues) + "\n"


def format_statistics(diagnostics: Sequence[Diagnostic]) -> str:
    counts = Counter(d.code for d in diagnostics)
    fixable = Counter(d.code for d in diagnostics if d.fix is not None)
    rules = all_rules()
    lines = []
    for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        name = rules[code].NAME if code in rules else ""
        marker = "[*]" if fixable[code] else "   "
        lines.append(f"{count:>5}\t{code}\t{marker} {name}\n")
    return "".join(lines)


FORMATTERS: Mapping[str, Callable[[Sequence[Diagnostic]], str]] = {
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
    "junit": format_junit,
    "gitlab": format_gitlab,
}
FORMATS = ("text", *FORMATTERS, "markdown")
SHOWS_FIX_EDITS = frozenset({"json", "sarif"})
"""The formats that print a fix's text edits; the others show only that a fix exists."""
"""``markdown`` is for ``--list-rules`` only (the rule documentation, ``docs/rules.md``)."""
