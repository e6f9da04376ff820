"""``[tool.ivycheck]`` configuration: loading, validation and rule selection.

A configuration belongs to the nearest ``pyproject.toml`` above a linted path that has a
``[tool.ivycheck]`` table (as ruff does with ``[tool.ruff]``); its directory is the root
against which every path pattern is matched. Unknown keys and bad values are errors that
name the key and the file, because a silently ignored typo in ``ignore`` is worse than a
failed run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any, cast

from ivycheck.checker.project.conventions import (
    DECORATOR_ALIASES,
    DEFAULT_BACKENDS,
    DEFAULT_DATA_CLASSES,
    DEFAULT_DECORATOR_ORDER,
    DEFAULT_FRONTENDS,
    DEFAULT_FUNCTIONAL_API,
    DEFAULT_RUNTIME_MODULES,
    KNOWN_BACKENDS,
)
from ivycheck.checker.project.globs import GlobSet
from ivycheck.checker.project.roots import contains, marker_root, own_folder, too_wide
from ivycheck.checker.project.selectors import (
    SelectorError,
    check_decorator_names,
    check_selectors,
    did_you_mean,
)

_BACKEND_FOLDER = re.compile(r"(?:^|/)functional/backends/([^/]+)/")

DEFAULT_EXCLUDE = (
    ".git/",
    ".hg/",
    ".svn/",
    ".venv/",
    "venv/",
    ".tox/",
    ".nox/",
    "__pycache__/",
    "build/",
    "dist/",
    "*.egg-info/",
    ".eggs/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".pytest_cache/",
    ".ivycheck_cache/",
    "node_modules/",
    "site-packages/",
)


DEFAULT_MAX_FILE_SIZE = 1024 * 1024
"""1 MiB: three times the largest file of the Ivy code base (355 kB), checked in about a
second and under 200 MiB; memory grows linearly below it (benchmarks/README.md, "File
size"). A 5 MB file took 53 s and 5.8 GB before there was a bound."""


class ConfigError(Exception):
    """A configuration problem the user has to fix; the CLI exits 2 with this message."""


@dataclass(frozen=True)
class Config:
    """Everything that decides what is checked and how, for files below ``root``."""

    root: Path
    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    functional_api: tuple[str, ...] = DEFAULT_FUNCTIONAL_API
    frontends: tuple[str, ...] = DEFAULT_FRONTENDS
    data_classes: tuple[str, ...] = DEFAULT_DATA_CLASSES
    backends: tuple[tuple[str, tuple[str, ...]], ...] = tuple(DEFAULT_BACKENDS.items())
    decorator_order: tuple[str, ...] = DEFAULT_DECORATOR_ORDER
    runtime_modules: tuple[str, ...] = DEFAULT_RUNTIME_MODULES
    respect_gitignore: bool = True
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    """Files larger than this many bytes (of UTF-8 text) are skipped with one finding."""
    category: tuple[str, ...] = ()
    """The categories reported (``correctness``, ``performance``, ``dead-code``); empty: all."""
    dropped_excludes: tuple[str, ...] = ()
    source: Path | None = None
    """The file the settings came from (``None``: the defaults); not part of the digest."""

    def digest(self) -> str:
        """A stable fingerprint of every option that can change a file's diagnostics."""
        payload = {
            "select": self.select,
            "extend_select": self.extend_select,
            "ignore": self.ignore,
            "per_file_ignores": self.per_file_ignores,
            "functional_api": self.functional_api,
            "frontends": self.frontends,
            "data_classes": self.data_classes,
            "backends": self.backends,
            "decorator_order": self.decorator_order,
            "runtime_modules": self.runtime_modules,
            "category": self.category,
            "max_file_size": self.max_file_size,
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:16]

    @cached_property
    def _root_prefix(self) -> str:
        return os.path.abspath(self.root) + os.sep

    def relative(self, path: Path | str) -> str:
        """The path as the patterns see it: relative to the root where possible, POSIX style.

        ``abspath``, not ``resolve``: no ``lstat`` per path component, which dominated
        warm runs over thousands of files.
        """
        absolute = os.path.abspath(path)
        if absolute.startswith(self._root_prefix):
            absolute = absolute[len(self._root_prefix) :]
        return absolute.replace(os.sep, "/")

    @cached_property
    def _exclude_patterns(self) -> tuple[str, ...]:
        patterns = (*DEFAULT_EXCLUDE, *self.exclude, *self.extend_exclude)
        return tuple(p for p in patterns if p not in self.dropped_excludes)

    @cached_property
    def _exclude_spec(self) -> GlobSet:
        return GlobSet.from_lines(self._exclude_patterns)

    def exclusion_below(self, relative_dir: str) -> Config:
        """The config for walking a directory named explicitly.

        A directory the user names is checked even if excluded, and so is everything in
        it: patterns that match the directory itself do not apply below it (as ruff
        checks an excluded folder passed on the command line).
        """
        alone = self._exclude_spec.alone_matches(relative_dir + "/")
        kept = tuple(p for p, hit in zip(self._exclude_patterns, alone, strict=True) if not hit)
        if len(kept) == len(self._exclude_patterns):
            return self
        dropped = tuple(p for p in self._exclude_patterns if p not in kept)
        return replace(self, dropped_excludes=(*self.dropped_excludes, *dropped))

    @cached_property
    def _part_specs(self) -> list[tuple[str, GlobSet]]:
        specs = [(f"backend:{name}", patterns) for name, patterns in self.backends]
        specs += [
            ("frontend", self.frontends),
            ("functional", self.functional_api),
            ("data_classes", self.data_classes),
        ]
        return [(part, GlobSet.from_lines(p)) for part, p in specs]

    @cached_property
    def _per_file_specs(self) -> list[tuple[GlobSet, tuple[str, ...]]]:
        return [(GlobSet.from_lines([pattern]), codes) for pattern, codes in self.per_file_ignores]

    def is_excluded(self, relative_path: str, is_dir: bool = False) -> bool:
        candidate = (
            relative_path + "/" if is_dir and not relative_path.endswith("/") else relative_path
        )
        return bool(self._exclude_spec.match_file(candidate))

    def is_excluded_in_walk(self, relative_path: str, is_dir: bool) -> bool:
        """``is_excluded`` for an entry of a directory the walk entered, so no enclosing
        directory was excluded. A file then cannot match a directory-only pattern
        (``build/``: every default one), since it would have matched the directory: only
        the other patterns need testing, often none.
        Negations can re-include, so with any of them every pattern is tested."""
        if is_dir or self._exclude_spec_for_walked_files is None:
            return self.is_excluded(relative_path, is_dir)
        spec = self._exclude_spec_for_walked_files
        return bool(spec.patterns) and bool(spec.match_file(relative_path))

    @cached_property
    def _exclude_spec_for_walked_files(self) -> GlobSet | None:
        patterns = self._exclude_patterns
        if any(p.lstrip().startswith("!") for p in patterns):
            return None
        return GlobSet.from_lines(p for p in patterns if not p.endswith("/"))

    @cached_property
    def _answers(self) -> dict[tuple[str, str, str | None], object]:
        """What :meth:`part_of`, :meth:`ignored_codes_for` and :meth:`is_enabled` answered,
        by question: a run asks each about every file several times (the summary, the
        early check, the check, each rule's selection), and each answer is a match of
        globs. A configuration never changes (a changed one is a new object)."""
        return {}

    def part_of(self, relative_path: str) -> str:
        """``functional``, ``frontend``, ``data_classes``, ``backend:<name>`` or ``other``.

        Besides the configured ``backends``, any folder below a ``functional/backends/``
        folder is a backend named by the folder (Ivy's paddle, mxnet...): rules that need
        no per-library data run on it (:data:`BACKEND_NAMES` are those that have it)."""
        question = ("part", relative_path, None)
        known = self._answers.get(question)
        if known is None:
            known = self._answers[question] = self._part_by_globs(relative_path)
        return cast(str, known)

    def _part_by_globs(self, relative_path: str) -> str:
        for part, spec in self._part_specs:
            if spec.match_file(relative_path):
                return part
        folder = _BACKEND_FOLDER.search(relative_path)
        return f"backend:{folder[1]}" if folder else "other"

    def ignored_codes_for(self, relative_path: str) -> tuple[str, ...]:
        question = ("ignored", relative_path, None)
        known = self._answers.get(question)
        if known is None:
            codes: list[str] = []
            for spec, ignored in self._per_file_specs:
                if spec.match_file(relative_path):
                    codes.extend(ignored)
            known = self._answers[question] = tuple(codes)
        return cast(tuple[str, ...], known)

    def is_enabled(self, code: str, relative_path: str | None = None) -> bool:
        """Ruff's selection semantics: the most specific matching prefix wins, ties ignore."""
        question = ("enabled", code, relative_path)
        known = self._answers.get(question)
        if known is None:
            known = self._answers[question] = self._selects(code, relative_path)
        return cast(bool, known)

    def _selects(self, code: str, relative_path: str | None) -> bool:
        selected = _best_match(code, (*self.select, *self.extend_select))
        if selected < 0:
            return False
        ignores = self.ignore
        if relative_path is not None:
            ignores = (*ignores, *self.ignored_codes_for(relative_path))
        return selected > _best_match(code, ignores)

    def is_opted_in(self, code: str, relative_path: str | None = None) -> bool:
        """``is_enabled`` for an opt-in rule (IVY100, as Ruff's RUF100 is not a default):
        only a selector reaching into its digits (``IVY100``, ``IVY1``) turns it on, not
        ``ALL`` or ``IVY``, so that adopting a new release does not add findings about
        suppressions written for other configurations."""
        letters = len(code) - len(code.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        explicit = _best_match(code, (*self.select, *self.extend_select)) > letters
        return explicit and self.is_enabled(code, relative_path)

    def reports_category(self, category: str) -> bool:
        """Whether findings of ``category`` are reported: ``category`` composes with the
        code selection (a finding must pass both)."""
        return not self.category or category in self.category

    def is_ignored(self, code: str, relative_path: str) -> bool:
        """Whether ``ignore`` or ``per-file-ignores`` name a prefix of ``code``."""
        ignores = (*self.ignore, *self.ignored_codes_for(relative_path))
        return _best_match(code, ignores) >= 0

    def with_overrides(self, **overrides: Any) -> Config:
        return replace(self, **overrides)


@dataclass(frozen=True)
class Overrides:
    """Options that replace or extend a configuration: the command line's, or the
    language server's client settings."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    category: tuple[str, ...] | None = None
    """Replaces the configuration's ``category`` when given."""

    def apply(self, config: Config) -> Config:
        changes: dict[str, tuple[str, ...]] = {}
        if self.category is not None:
            changes["category"] = self.category
        if self.select is not None:
            changes["select"] = self.select
            changes["extend_select"] = ()
        if self.extend_select:
            changes["extend_select"] = (*config.extend_select, *self.extend_select)
        if self.ignore:
            changes["ignore"] = (*config.ignore, *self.ignore)
        return config.with_overrides(**changes) if changes else config


CATEGORIES: tuple[str, ...] = ("correctness", "performance", "dead-code")
"""The values of :class:`~ivycheck.checker.core.rule.Category`, which ``category`` selects."""


def category_list(names: Iterable[str], where: str) -> tuple[str, ...]:
    """``names`` checked against :data:`CATEGORIES` (a typo must not silence everything)."""
    chosen = tuple(dict.fromkeys(name.strip().lower() for name in names if name.strip()))
    unknown = [name for name in chosen if name not in CATEGORIES]
    if unknown:
        raise ConfigError(
            f"{where}: unknown category {unknown[0]!r} (expected {', '.join(CATEGORIES)})"
        )
    return chosen


def _best_match(code: str, prefixes: Iterable[str]) -> int:
    """Length of the longest prefix of ``code`` in ``prefixes`` (``ALL`` counts as 0), or -1."""
    best = -1
    for prefix in prefixes:
        if prefix == "ALL":
            best = max(best, 0)
        elif code.startswith(prefix):
            best = max(best, len(prefix))
    return best


_CODE_LIST_KEYS = {"select", "extend-select", "ignore"}
_PATTERN_LIST_KEYS = {
    "exclude",
    "extend-exclude",
    "functional-api",
    "frontends",
    "data-classes",
    "decorator-order",
    "runtime-modules",
}
KNOWN_KEYS = frozenset(
    _CODE_LIST_KEYS
    | _PATTERN_LIST_KEYS
    | {"per-file-ignores", "backends", "respect-gitignore", "category", "max-file-size"}
)


def _string_list(value: Any, key: str, source: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{source}: [tool.ivycheck] {key} must be a list of strings")
    return tuple(value)


_NOT_GLOBS = frozenset({"decorator-order", "runtime-modules"})


def _glob_list(value: Any, key: str, source: Path) -> tuple[str, ...]:
    """Patterns in ``.gitignore`` syntax, each compiled once here: a bad one (``[z-a]``,
    a lone ``\\``) is a configuration error naming the key, not a traceback mid-run."""
    patterns = _string_list(value, key, source)
    for pattern in patterns:
        try:
            GlobSet.from_lines([pattern])
        except (ValueError, re.error) as err:  # GitIgnorePatternError is a ValueError
            raise ConfigError(
                f"{source}: [tool.ivycheck] {key}: {pattern!r} is not a valid pattern "
                f"(.gitignore syntax): {err}"
            ) from None
    return patterns


def _code_list(value: Any, key: str, source: Path) -> tuple[str, ...]:
    codes = _string_list(value, key, source)
    for code in codes:
        if code != "ALL" and not (code[:1].isalpha() and code.isalnum() and code.isupper()):
            raise ConfigError(
                f"{source}: [tool.ivycheck] {key}: {code!r} is not a rule code or prefix "
                "(expected e.g. 'IVY005', 'IVY0' or 'ALL')"
            )
    return codes


def config_from_table(
    table: Mapping[str, Any], root: Path, source: Path | None, rule_codes: Collection[str]
) -> Config:
    """Validate a ``[tool.ivycheck]`` table into a :class:`Config`; every rule selector must
    select one of ``rule_codes`` (the registry's, passed in by the layer that knows the rules:
    the configuration is read below the rules and must not import them)."""
    where = source or Path("<settings>")
    unknown = sorted(set(table) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r} in [tool.ivycheck]"
            f"{did_you_mean(unknown[0], KNOWN_KEYS)} (known keys: {', '.join(sorted(KNOWN_KEYS))})"
        )
    values: dict[str, Any] = {"root": root}
    for key, value in table.items():
        attr = key.replace("-", "_")
        if key in _CODE_LIST_KEYS:
            values[attr] = _code_list(value, key, where)
        elif key in _NOT_GLOBS:
            values[attr] = _string_list(value, key, where)
        elif key in _PATTERN_LIST_KEYS:
            values[attr] = _glob_list(value, key, where)
        elif key == "respect-gitignore":
            if not isinstance(value, bool):
                raise ConfigError(
                    f"{where}: [tool.ivycheck] respect-gitignore must be true or false"
                )
            values[attr] = value
        elif key == "max-file-size":
            if type(value) is not int or value < 1:
                raise ConfigError(
                    f"{where}: [tool.ivycheck] max-file-size must be a positive number of bytes"
                )
            values[attr] = value
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(
                    f"{where}: [tool.ivycheck] per-file-ignores must be a table of "
                    "pattern = [codes]"
                )
            values[attr] = tuple(
                (
                    _glob_list([pattern], "per-file-ignores", where)[0],
                    _code_list(codes, f"per-file-ignores.{pattern!r}", where),
                )
                for pattern, codes in value.items()
            )
        elif key == "category":
            values[attr] = category_list(
                _string_list(value, key, where), f"{where}: [tool.ivycheck] category"
            )
        elif key == "backends":
            values[attr] = _backends(value, where)
    _check_names(values, where, rule_codes)
    return Config(**values)


def _check_names(values: Mapping[str, Any], where: Path, codes: Collection[str]) -> None:
    """Every rule selector must select a rule and every ``decorator-order`` name be a known
    decorator: a typo there switches a check off without a word."""
    try:
        for key in sorted(_CODE_LIST_KEYS):
            check_selectors(values.get(key.replace("-", "_"), ()), codes, f"{where}: {key}")
        for pattern, ignored in values.get("per_file_ignores", ()):
            check_selectors(ignored, codes, f"{where}: per-file-ignores.{pattern!r}")
        check_decorator_names(
            values.get("decorator_order", ()),
            (*DEFAULT_DECORATOR_ORDER, *DECORATOR_ALIASES),
            f"{where}: decorator-order",
        )
    except SelectorError as err:
        raise ConfigError(str(err)) from None


def _backends(value: Any, where: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: [tool.ivycheck] backends must be a table of name = [patterns]")
    merged = dict(DEFAULT_BACKENDS)
    for name, patterns in value.items():
        if name not in KNOWN_BACKENDS:
            raise ConfigError(
                f"{where}: [tool.ivycheck] backends: unknown backend {name!r}"
                f"{did_you_mean(name, KNOWN_BACKENDS)} (known backends: "
                f"{', '.join(KNOWN_BACKENDS)})"
            )
        merged[name] = _glob_list(patterns, f"backends.{name}", where)
    return tuple(merged.items())


def load_config_file(path: Path, rule_codes: Collection[str]) -> Config:
    """Read a config file given with ``--config``: a pyproject.toml or a bare ivycheck.toml."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read config file: {err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: invalid TOML: {err}") from None
    if path.name == "pyproject.toml" or "tool" in data:
        table = data.get("tool", {}).get("ivycheck", {})
    else:
        table = data
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.ivycheck] must be a table")
    absolute = Path(os.path.abspath(path))
    return replace(config_from_table(table, absolute.parent, absolute, rule_codes), source=absolute)


CONFIG_FILE_NAMES = (".ivycheck.toml", "ivycheck.toml", "pyproject.toml")
"""Searched in each folder in this order, as Ruff searches ``.ruff.toml``, ``ruff.toml``
and ``pyproject.toml``; a pyproject.toml counts only with a ``[tool.ivycheck]`` table."""


def config_file_in(directory: Path) -> Path | None:
    """The configuration file of ``directory``, if it has one (see ``CONFIG_FILE_NAMES``)."""
    for name in CONFIG_FILE_NAMES[:2]:
        candidate = directory / name
        if candidate.is_file():
            return candidate
    pyproject = directory / "pyproject.toml"
    return pyproject if pyproject.is_file() and _has_ivycheck_table(pyproject) else None


def find_config(
    start: Path, rule_codes: Collection[str], _cache: dict[Path, Config] | None = None
) -> Config:
    """The config of the nearest configuration file above ``start``; without one, the
    defaults rooted at :func:`~ivycheck.checker.project.roots.marker_root` of ``start``.

    With ``_cache`` shared across a run, a folder below one already resolved gets that
    folder's answer: the files found under a path named on the command line share its
    root even in a tree without markers."""
    directory = own_folder(start)
    visited: list[Path] = []
    found: Config | None = None
    for candidate in (directory, *directory.parents):
        if too_wide(candidate):  # home, /tmp, /: another project's settings, not ours
            break
        if _cache is not None and candidate in _cache:
            found = _cache[candidate]
            break
        visited.append(candidate)
        config_file = config_file_in(candidate)
        if config_file is not None:
            found = load_config_file(config_file, rule_codes)
            break
    if found is None:
        found = Config(root=marker_root(start))
        # Folders above the root belong to no project of ours: not answered from here.
        visited = [candidate for candidate in visited if contains(found.root, candidate)]
    if _cache is not None:
        for candidate in visited:
            _cache[candidate] = found
    return found


def configures(directory: Path) -> bool:
    """Whether ``directory`` holds a configuration file, i.e. is the root of a found
    configuration (``find_config`` falls back to the defaults at a marker's root)."""
    return config_file_in(directory) is not None


def _has_ivycheck_table(pyproject: Path) -> bool:
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{pyproject}: invalid TOML: {err}") from None
    except (OSError, UnicodeDecodeError):
        return False
    tool = data.get("tool", {})
    return isinstance(tool, dict) and "ivycheck" in tool
