"""Which files a run looks at.

Directories are walked with ``os.scandir`` (no ``stat`` per file beyond what the
directory entry gives), pruning excluded directories before descending into them, so a
``.venv`` with 50,000 files costs one ``match``. ``.gitignore`` files are honoured from
the repository root down. A file named explicitly on the command line is always checked,
as in ruff and flake8.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ivycheck.checker.project.config import Config
from ivycheck.checker.project.globs import GlobSet
from ivycheck.checker.project.roots import contains, marker_root, own_folder


@dataclass(frozen=True)
class _IgnoreFile:
    base: Path
    lines: tuple[str, ...]
    spec: GlobSet

    @classmethod
    def from_lines(cls, base: Path, lines: tuple[str, ...]) -> _IgnoreFile:
        # git skips a line it cannot use; so does a .gitignore here (no run fails on one)
        return cls(base, lines, GlobSet.from_lines(lines, skip_invalid=True))

    def opened_for(self, directory: Path) -> _IgnoreFile:
        """Without the patterns that ignore ``directory``, which the user named explicitly."""
        if not self.ignores(directory, is_dir=True):
            return self
        kept = tuple(
            line
            for line in self.lines
            if not _IgnoreFile.from_lines(self.base, (line,)).ignores(directory, is_dir=True)
        )
        return _IgnoreFile.from_lines(self.base, kept)

    def ignores(self, path: Path, is_dir: bool) -> bool:
        try:
            rel = path.relative_to(self.base).as_posix()
        except ValueError:
            return False
        return bool(self.spec.match_file(rel + "/" if is_dir else rel))


def _read_gitignore(directory: Path) -> _IgnoreFile | None:
    candidate = directory / ".gitignore"
    try:
        lines = candidate.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return _IgnoreFile.from_lines(directory, tuple(lines))


def _enclosing_gitignores(directory: Path) -> list[_IgnoreFile]:
    """The ``.gitignore`` files between the repository root and ``directory`` (exclusive)."""
    found: list[_IgnoreFile] = []
    for parent in directory.parents:
        ignore = _read_gitignore(parent)
        if ignore is not None:
            found.append(ignore)
        if (parent / ".git").exists():
            break
    else:
        return []
    return found


@dataclass
class DiscoveryProblem:
    """A path that could not be walked; reported, and the run goes on."""

    path: Path
    message: str


def iter_python_files(
    paths: list[Path],
    config_for: Callable[[Path], Config],
    problems: list[DiscoveryProblem],
) -> Iterator[Path]:
    """Yield every Python file under ``paths``, each once, in a stable order."""
    seen: set[str] = set()
    for path in paths:
        if not os.path.lexists(path):
            problems.append(DiscoveryProblem(path, "no such file or directory"))
            continue
        if path.is_file() or (path.is_symlink() and not path.is_dir()):
            key = os.path.abspath(path)
            if key not in seen:
                seen.add(key)
                yield path
            continue
        if not path.is_dir():
            problems.append(DiscoveryProblem(path, "not a file or directory"))
            continue
        config = config_for(path)
        config = config.exclusion_below(config.relative(path))
        start = Path(os.path.abspath(path))
        ignores = (
            [ignore.opened_for(start) for ignore in _enclosing_gitignores(start)]
            if config.respect_gitignore
            else []
        )
        for found in _walk(path, config, ignores, problems):
            key = os.path.abspath(found)
            if key not in seen:
                seen.add(key)
                yield found


def _walk(
    directory: Path,
    config: Config,
    ignores: list[_IgnoreFile],
    problems: list[DiscoveryProblem],
) -> Iterator[Path]:
    if config.respect_gitignore:
        own = _read_gitignore(Path(os.path.abspath(directory)))
        if own is not None:
            ignores = [*ignores, own]
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as err:
        problems.append(DiscoveryProblem(directory, f"cannot read directory: {err.strerror}"))
        return
    subdirs: list[Path] = []
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
            is_file = entry.is_file()
        except OSError:
            is_dir = is_file = False
        if not is_dir and not entry.name.endswith(".py"):
            continue
        rel = config.relative(path)
        if config.is_excluded_in_walk(rel, is_dir) or config.is_excluded_in_walk(
            entry.name, is_dir
        ):
            continue
        absolute = Path(os.path.abspath(path)) if ignores else path
        if any(ignore.ignores(absolute, is_dir) for ignore in ignores):
            continue
        if is_dir:
            if not entry.is_symlink():
                subdirs.append(path)
        elif is_file or entry.is_symlink():
            yield path
        else:  # a FIFO, socket or device named *.py: reading it could block forever
            problems.append(DiscoveryProblem(path, "not a regular file; skipped"))
    for subdir in subdirs:
        yield from _walk(subdir, config, ignores, problems)


@dataclass(frozen=True)
class ProjectFiles:
    """What a run looks at: the files in order, each with its configuration."""

    files: list[Path]
    configs: dict[Path, Config]
    problems: list[DiscoveryProblem]


def discover(
    paths: list[Path],
    config_for: Callable[[Path], Config],
    config_for_file: Callable[[Path], Config] | None = None,
) -> ProjectFiles:
    """The Python files under ``paths`` and their configurations. ``config_for`` decides
    what discovery excludes; ``config_for_file`` (default: the same) each file's config,
    for a caller that shares one object per directory."""
    problems: list[DiscoveryProblem] = []
    files = list(iter_python_files(paths, config_for, problems))
    per_file = config_for_file or config_for
    return ProjectFiles(files, {path: per_file(path) for path in files}, problems)


def project_root(path: Path, configured_root: Path | None) -> Path:
    """The folder whose every Python file the cross-file rules see when ``path`` is checked.

    Invariant: any paths within one project give the same root, so a file gets the same
    findings whichever paths name it and from whichever folder. With a configuration, its
    root (for a path inside it); without one, :func:`~ivycheck.checker.project.roots.marker_root`.
    """
    if configured_root is not None and contains(configured_root, own_folder(path)):
        return Path(os.path.abspath(configured_root))
    return marker_root(path)


def outermost(folders: list[Path]) -> list[Path]:
    """``folders`` without those inside another one, each once, in a stable order."""
    unique = sorted({Path(os.path.abspath(folder)) for folder in folders})
    kept: list[Path] = []
    for folder in unique:
        if not any(folder == outer or outer in folder.parents for outer in kept):
            kept.append(folder)
    return kept
