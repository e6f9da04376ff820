"""Where a configuration error is, so that the editor can underline it.

:class:`~ivycheck.checker.project.config.ConfigError` says what is wrong in words that start with
the file's path; the server also wants the line. The offending key is found by running
the real validator (:func:`~ivycheck.checker.project.config.config_from_table`) on one key at a
time, so this module holds no copy of the rules about what a valid value is; the key's
line is then read from the text. Invalid TOML carries its own line number.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import ConfigError, config_from_table

_TOML_LINE = re.compile(r"at line (\d+)")
_HEADER = re.compile(r"^\s*\[+\s*([^\]]+?)\s*\]+")


@dataclass(frozen=True)
class ConfigProblem:
    """A configuration file that could not be used, and what is used instead."""

    file: Path
    message: str
    kept_last_good: bool

    @property
    def user_message(self) -> str:
        fallback = "keeping the last good settings" if self.kept_last_good else "using defaults"
        return f"ivycheck: {self.message} ({fallback} until it is fixed)"


def problem_file(error: ConfigError, near: Path) -> Path:
    """The file an error is about: its message starts with the path, as the command prints
    it. Without an existing file there (a message of another shape), the nearest
    ``pyproject.toml`` above ``near``."""
    message = str(error)
    cut = message.find(": ")
    while cut > 0:
        candidate = Path(message[:cut])
        if candidate.is_file():
            return Path(os.path.abspath(candidate))
        cut = message.find(": ", cut + 1)
    directory = Path(os.path.abspath(near))
    for candidate_dir in (directory, *directory.parents):
        if (candidate_dir / "pyproject.toml").is_file():
            return candidate_dir / "pyproject.toml"
    return directory / "pyproject.toml"


def problem_line(file: Path, message: str) -> int:
    """The 0-based line of what ``message`` complains about in ``file``; 0 if not found."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    toml_line = _TOML_LINE.search(message)
    if toml_line is not None and "invalid TOML" in message:
        return max(int(toml_line.group(1)) - 1, 0)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return 0
    nested = file.name == "pyproject.toml" or "tool" in data
    table: Any = data.get("tool", {}).get("ivycheck", {}) if nested else data
    if not isinstance(table, dict):
        return 0
    key = _offending_key(table, file)
    if key is None:
        return 0
    section = "tool.ivycheck" if nested else ""
    return _key_line(text.splitlines(), section, key)


def _offending_key(table: dict[str, Any], file: Path) -> str | None:
    for key, value in table.items():
        try:
            config_from_table({key: value}, file.parent, file, all_rules().keys())
        except ConfigError:
            return key
    return None


def _key_line(lines: list[str], section: str, key: str) -> int:
    """The line that sets ``key`` in ``section``: ``key = ...``, ``"key" = ...``, a dotted
    ``key.name = ...``, or a sub-table header ``[section.key...]``."""
    assignment = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[.=]")
    current = ""
    for number, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is not None:
            current = header.group(1).replace(" ", "")
            sub = f"{section}.{key}" if section else key
            if current == sub or current.startswith(sub + "."):
                return number
            continue
        if current == section and assignment.match(line):
            return number
    return 0


__all__ = ["ConfigProblem", "problem_file", "problem_line"]
