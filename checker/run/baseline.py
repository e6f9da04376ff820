"""Baselines: adopt the checker on a legacy tree without editing it.

``--write-baseline FILE`` records today's findings; ``--baseline FILE`` reports only the
findings that are not in it. A finding is identified without its line number, so that
code added above it does not make it "new": by its file (relative to the baseline's
directory, so the file works from any working directory and checkout), its code, a
fingerprint of its line's text (blanks collapsed) and of the function or class it sits
in (its qualified name), and its occurrence index among findings that share all of
those. Moving a finding, or editing other lines, keeps it matched; changing its own line
or renaming its function makes it new, as a reviewer would judge it too. A baseline entry
that matches nothing any more was fixed: it is counted (and dropped when the baseline is
written again).

The file is JSON, one entry per finding sorted by path, code, fingerprint, occurrence,
with the message kept for the reader only, so that a rewritten baseline diffs as the
findings that were fixed.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ivycheck.checker.base.diagnostics import Diagnostic

FORMAT_VERSION = 1
_BLANKS = re.compile(r"\s+")


class BaselineError(Exception):
    """A baseline file that cannot be read or is not one; the CLI exits 2."""


@dataclass(frozen=True, order=True)
class Entry:
    path: str
    code: str
    fingerprint: str
    occurrence: int

    @property
    def key(self) -> tuple[str, str, str, int]:
        return (self.path, self.code, self.fingerprint, self.occurrence)


SourceReader = Callable[[str], str | None]
"""The text of a diagnostic's file by the path it carries (``None``: unreadable)."""


class _Scopes:
    """The innermost function or class around a line, by qualified name; ast, per file."""

    def __init__(self, source: str | None) -> None:
        self.spans: list[tuple[int, int, str]] = []
        if source is None:
            return
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(source)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return
        self._collect(tree.body, "")

    def _collect(self, nodes: Iterable[ast.AST], prefix: str) -> None:
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{node.name}"
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                self.spans.append((first, node.end_lineno or node.lineno, name))
                self._collect(node.body, name + ".")
            else:
                self._collect(ast.iter_child_nodes(node), prefix)

    def at(self, line: int) -> str:
        best = ""
        best_size = -1
        for first, last, name in self.spans:
            if first <= line <= last and (best_size < 0 or last - first < best_size):
                best, best_size = name, last - first
        return best


def _fingerprint(scope: str, text: str) -> str:
    normalized = _BLANKS.sub(" ", text).strip()
    return hashlib.blake2b(f"{scope}\0{normalized}".encode(), digest_size=8).hexdigest()


def _relative(path: str, root: Path) -> str:
    absolute = os.path.abspath(path)
    try:
        return Path(os.path.relpath(absolute, root)).as_posix()
    except ValueError:  # another drive on Windows
        return Path(absolute).as_posix()


def identify(
    diagnostics: Sequence[Diagnostic], root: Path, read: SourceReader
) -> list[tuple[Diagnostic, Entry]]:
    """Each diagnostic with its baseline identity (``root``: the baseline's directory)."""
    by_file: dict[str, tuple[list[str], _Scopes]] = {}
    counts: Counter[tuple[str, str, str]] = Counter()
    identified = []
    for d in sorted(diagnostics, key=lambda d: d.sort_key):
        if d.path not in by_file:
            text = read(d.path)
            lines = text.split("\n") if text is not None else []
            by_file[d.path] = (lines, _Scopes(text))
        lines, scopes = by_file[d.path]
        line_text = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
        identity = (_relative(d.path, root), d.code, _fingerprint(scopes.at(d.line), line_text))
        identified.append((d, Entry(*identity, counts[identity])))
        counts[identity] += 1
    return identified


def rows(identified: Iterable[tuple[Diagnostic, Entry]]) -> dict[Entry, str]:
    """Baseline rows (entry -> message) of identified findings."""
    return {entry: d.message for d, entry in identified}


def write_baseline(file: Path, entries: Mapping[Entry, str]) -> int:
    """Write the baseline atomically; returns the number of entries."""
    document = {
        "tool": "ivycheck",
        "version": FORMAT_VERSION,
        "findings": [
            {
                "path": entry.path,
                "code": entry.code,
                "fingerprint": entry.fingerprint,
                "occurrence": entry.occurrence,
                "message": entries[entry],
            }
            for entry in sorted(entries)
        ],
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    temporary = file.with_name(f".{file.name}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, file)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise BaselineError(f"{file}: cannot write the baseline: {err.strerror or err}") from None
    return len(entries)


def load_baseline(file: Path) -> dict[Entry, str]:
    """The entries of a baseline file, with their messages."""
    try:
        data: Any = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"{file}: baseline file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BaselineError(f"{file}: cannot read the baseline: {err}") from None
    except json.JSONDecodeError as err:
        raise BaselineError(f"{file}: not a baseline (invalid JSON: {err})") from None
    if not isinstance(data, dict) or data.get("tool") != "ivycheck":
        raise BaselineError(f"{file}: not an ivycheck baseline")
    if data.get("version") != FORMAT_VERSION:
        raise BaselineError(
            f"{file}: baseline format version {data.get('version')!r} is not "
            f"{FORMAT_VERSION}; write it again with --write-baseline"
        )
    entries: dict[Entry, str] = {}
    for row in data.get("findings", []):
        try:
            entry = Entry(
                str(row["path"]), str(row["code"]), str(row["fingerprint"]), int(row["occurrence"])
            )
            entries[entry] = str(row.get("message", ""))
        except (KeyError, TypeError, ValueError):
            raise BaselineError(f"{file}: malformed baseline entry {row!r}") from None
    return entries


def in_scope(paths: Sequence[Path], root: Path) -> Callable[[str], bool]:
    """Whether a baseline path (relative to ``root``) lies under one of the checked
    ``paths``: entries of files this run did not look at are neither fixed nor dropped."""
    prefixes = [os.path.abspath(p) for p in paths]

    def check(relative: str) -> bool:
        absolute = os.path.abspath(root / relative)
        return any(
            absolute == p or absolute.startswith(p.rstrip(os.sep) + os.sep) for p in prefixes
        )

    return check


@dataclass
class Filtered:
    new: list[Diagnostic]
    """Findings not in the baseline: the ones to report."""
    known: dict[Entry, str]
    """Baseline entries still found, and entries of files outside this run: what a
    rewritten baseline keeps."""
    fixed: int
    """Baseline entries of checked files that matched no finding: fixed since."""


def apply_baseline(
    entries: Mapping[Entry, str],
    identified: Sequence[tuple[Diagnostic, Entry]],
    checked: Callable[[str], bool],
) -> Filtered:
    new = [d for d, entry in identified if entry not in entries]
    found = {entry for _, entry in identified}
    known: dict[Entry, str] = {}
    fixed = 0
    for entry, message in entries.items():
        if entry in found or not checked(entry.path):
            known[entry] = message
        else:
            fixed += 1
    return Filtered(new, known, fixed)
