"""What the command can say about itself: the settings a path gets, the files a run
would check and the part each plays, and the rule list as JSON.

A project with its own layout cannot otherwise see why a cross-file rule is silent: the
usual cause is a ``functional-api`` or ``backends`` glob that matches nothing, so each
configured glob that matches no checked file is warned about by name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ivycheck.checker.base.sourcefile import SourceError, read_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.frontends.reporters import quote_name
from ivycheck.checker.project.config import Config, config_file_in
from ivycheck.checker.project.conventions import (
    DEFAULT_BACKENDS,
    DEFAULT_DATA_CLASSES,
    DEFAULT_FRONTENDS,
    DEFAULT_FUNCTIONAL_API,
)
from ivycheck.checker.project.discovery import ProjectFiles
from ivycheck.checker.project.globs import GlobSet
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import explain_part
from ivycheck.checker.run.cache import cache_directory, cache_status

PART_LABELS = {"functional": "functional API", "frontend": "frontend", "data_classes": "data class"}


def part_label(part: str) -> str:
    """``functional API``, ``backend:NAME``, ``frontend``, ``data class`` or ``other``."""
    return PART_LABELS.get(part, part)


def rule_code(name_or_code: str) -> str | None:
    """The rule code for a code (any case) or a rule name (``decorator-order``)."""
    rules = all_rules()
    if name_or_code.upper() in rules:
        return name_or_code.upper()
    wanted = name_or_code.lower().replace("_", "-")
    return next((code for code, rule in rules.items() if wanted == rule.NAME), None)


def rules_json() -> str:
    """``--list-rules --format json``: one object per rule, by code."""
    return (
        json.dumps(
            [
                {
                    "code": rule.CODE,
                    "name": rule.NAME,
                    "message": rule.MESSAGE,
                    "severity": rule.SEVERITY.value,
                    "category": rule.CATEGORY.value,
                    "fix": rule.FIX_SAFETY.value if rule.FIX_SAFETY else None,
                    "explanation": rule.explanation(),
                }
                for rule in all_rules().values()
            ],
            indent=2,
        )
        + "\n"
    )


def _toml(value: object) -> str:
    return json.dumps(value)


def show_settings(path: Path, config: Config, index: ProjectIndex | None = None) -> str:
    """The resolved settings for ``path``, as TOML a user could paste back, and what the
    rules read from its project (``index``) instead of a setting."""
    source = config.source
    lines = [
        f"# Settings for {path}",
        f"# configuration file: {source if source is not None else '(none; defaults)'}",
        f"# root: {config.root}",
        f"# cache: {cache_status(cache_directory(config.root))}",
        f"# part of {path}: {part_label(config.part_of(config.relative(path)))}",
        "[tool.ivycheck]",
        f"select = {_toml(list(config.select))}",
        f"extend-select = {_toml(list(config.extend_select))}",
        f"ignore = {_toml(list(config.ignore))}",
        f"exclude = {_toml(list(config.exclude))}",
        f"extend-exclude = {_toml(list(config.extend_exclude))}",
        f"functional-api = {_toml(list(config.functional_api))}",
        f"frontends = {_toml(list(config.frontends))}",
        f"data-classes = {_toml(list(config.data_classes))}",
        f"decorator-order = {_toml(list(config.decorator_order))}",
        f"runtime-modules = {_toml(list(config.runtime_modules))}",
        f"respect-gitignore = {_toml(config.respect_gitignore)}",
        f"max-file-size = {config.max_file_size}",
        "",
        "[tool.ivycheck.per-file-ignores]",
        *(f"{_toml(pattern)} = {_toml(list(codes))}" for pattern, codes in config.per_file_ignores),
        "",
        "[tool.ivycheck.backends]",
        *(f"{name} = {_toml(list(patterns))}" for name, patterns in config.backends),
        "",
        *_out_fate_lines(index or ProjectIndex()),
    ]
    return "\n".join(lines) + "\n"


def _out_fate_lines(index: ProjectIndex) -> list[str]:
    """How IVY001-IVY003/IVY015 decide what ``out`` becomes (not a setting: read from the
    tree, with a default), as comments: the fate table of ``rules/_out_fate.py``."""
    from ivycheck.rules._out_fate import fate_table

    return fate_table(index)


def _configured_globs(config: Config) -> Iterable[tuple[str, str]]:
    """(key, glob) of the part and per-file-ignores patterns the user set (not defaults)."""
    for key, patterns, defaults in (
        ("functional-api", config.functional_api, DEFAULT_FUNCTIONAL_API),
        ("frontends", config.frontends, DEFAULT_FRONTENDS),
        ("data-classes", config.data_classes, DEFAULT_DATA_CLASSES),
    ):
        yield from ((key, p) for p in patterns if p not in defaults)
    for name, patterns in config.backends:
        yield from (
            (f"backends.{name}", p) for p in patterns if p not in DEFAULT_BACKENDS.get(name, ())
        )
    for pattern, _ in config.per_file_ignores:
        yield "per-file-ignores", pattern


def _text_if_other(config: Config, relative: str, path: Path) -> str | None:
    """The file's text where the globs leave it ``other`` (its code may make it API)."""
    if config.part_of(relative) != "other":
        return None
    try:
        return read_source(Path(path)).text
    except SourceError:
        return None


def show_files(project: ProjectFiles) -> tuple[str, list[str]]:
    """Each file with its part and the rule that found it (the glob, the backend folder,
    or its code: ``layout.explain_part``), and a warning per configured glob matching
    none of them."""
    lines = []
    relative_by_config: dict[int, tuple[Config, list[str]]] = {}
    for path in project.files:
        config = project.configs[path]
        relative = config.relative(path)
        part, found_by = explain_part(config, relative, _text_if_other(config, relative, path))
        name = quote_name(str(path))  # as the text report writes it: no ESC, no newline
        lines.append(f"{name}\t{part_label(part)}" + (f"\t{found_by}" if found_by else ""))
        relative_by_config.setdefault(id(config), (config, []))[1].append(relative)
    warnings: list[str] = []
    seen: set[tuple[Path, str, str]] = set()
    for config, relatives in relative_by_config.values():
        for key, glob in _configured_globs(config):
            if (config.root, key, glob) in seen:
                continue
            seen.add((config.root, key, glob))
            spec = GlobSet.from_lines([glob])
            if not any(spec.match_file(r) for r in relatives):
                where = config_file_in(config.root) or config.root
                warnings.append(f"{key} pattern {glob!r} ({where}) matches no checked file")
    return "".join(line + "\n" for line in lines), warnings
