"""ivycheck as a flake8 plugin: ``flake8 --select IVY`` reports what ``ivycheck`` reports.

flake8 hands a plugin one file at a time; ivycheck's cross-file rules need the project
index. The plugin builds it lazily, on the first file it checks, for the paths flake8 was
given, through the command's own :class:`~ivycheck.checker.run.projects.Projects` (the whole
project around those paths, as ``ivycheck`` indexes it: same discovery, excludes, summary
cache, and no index when no active rule reads it, so ``flake8 one_file.py`` reports what
``ivycheck .`` reports for that file), and keeps it for the rest of the process.
With ``--jobs`` flake8 re-parses its options in every worker process, so each worker
builds the index once, keyed by the paths and the working directory.

Each file is then checked by :meth:`Projects.check_text` with the file's
``[tool.ivycheck]`` configuration. flake8 applies its own ``noqa``, ``--extend-ignore`` and
``--per-file-ignores`` on top. flake8 adds 1 to the column a plugin yields, so the plugin
yields ``col - 1`` and the numbers printed are ivycheck's.

Files that ivycheck's discovery skips below a path given to flake8 (``exclude`` in
``[tool.ivycheck]``, ``.gitignore``) are skipped here too; files outside every given path
(standard input, say) are always checked.
"""

from __future__ import annotations

import argparse
import ast
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from ivycheck import __version__
from ivycheck.checker.project.config import ConfigError
from ivycheck.checker.run.projects import Projects, RootIndexes

Result = tuple[int, int, str, type]


@dataclass(frozen=True)
class _Project:
    """What one flake8 run over some paths needs: the workspace, the indexes, the files."""

    workspace: Projects
    indexes: RootIndexes
    """One per project root: a file is checked against its own root's."""
    files: frozenset[str]
    directories: tuple[str, ...]

    def skips(self, path: str) -> bool:
        """Whether ivycheck's discovery would leave out a file below a directory it walked."""
        absolute = os.path.abspath(path)
        if absolute in self.files:
            return False
        return any(absolute.startswith(directory) for directory in self.directories)


def _build_project(paths: Sequence[str], use_cache: bool) -> _Project:
    given = [Path(p) for p in paths] or [Path(".")]
    workspace = Projects(use_cache=use_cache)
    project = workspace.discover(given)
    cache = workspace.cache_at(workspace.root_of(given[0]))
    indexes = workspace.build_indexes(project, given, cache)
    cache.save()
    directories = tuple(os.path.abspath(p) + os.sep for p in given if p.is_dir())
    files = frozenset(os.path.abspath(p) for p in project.files)
    return _Project(workspace, indexes, files, directories)


def _selects_ivy(options: argparse.Namespace) -> bool:
    """flake8 runs every installed plugin and filters codes afterwards, so ``flake8
    --select F`` would otherwise build ivycheck's project index and check every file for
    nothing. ``--select`` unset means every code (flake8 >= 6), extensions included."""
    select = getattr(options, "select", None)
    if select is None:
        return True
    chosen = [*select, *(getattr(options, "extend_select", None) or [])]
    return any(code.startswith("IVY") or "IVY".startswith(code) for code in chosen)


class IvycheckFlake8:
    """The flake8 entry point (``IVY`` in the ``flake8.extension`` group)."""

    name = "ivycheck"
    version = __version__

    _paths: ClassVar[tuple[str, ...]] = (".",)
    _use_cache: ClassVar[bool] = True
    _selected: ClassVar[bool] = True
    """Whether flake8 will report any IVY code at all; if not, the plugin does nothing."""
    _projects: ClassVar[dict[tuple[str, tuple[str, ...]], _Project]] = {}
    """Per process: the project of each (working directory, paths), built on first use."""

    def __init__(self, tree: ast.AST, filename: str, lines: Sequence[str]) -> None:
        self.filename = filename
        self.lines = lines

    @classmethod
    def add_options(cls, parser: Any) -> None:
        """``parser`` is flake8's (untyped) option manager."""
        parser.add_option(
            "--ivycheck-no-cache",
            action="store_true",
            parse_from_config=True,
            help="ivycheck: neither read nor write .ivycheck_cache/ for the project index",
        )

    @classmethod
    def parse_options(cls, options: argparse.Namespace) -> None:
        cls._paths = tuple(getattr(options, "filenames", None) or (".",))
        cls._use_cache = not getattr(options, "ivycheck_no_cache", False)
        cls._selected = _selects_ivy(options)

    @classmethod
    def project(cls) -> _Project:
        key = (os.getcwd(), cls._paths)
        project = cls._projects.get(key)
        if project is None:
            project = _build_project(cls._paths, cls._use_cache)
            cls._projects[key] = project
        return project

    def run(self) -> Iterator[Result]:
        if not self._selected:
            return
        source = "".join(self.lines)
        try:
            project = self.project()
            if self.filename not in ("stdin", "-") and project.skips(self.filename):
                return
            config = project.workspace.config_for(Path(self.filename))
        except ConfigError as err:
            yield 1, 0, f"IVY999 ivycheck configuration error: {err}", type(self)
            return
        # flake8 shows no fixes: their text edits are not made (their text edits are made only where a front door shows them).
        found = project.workspace.check_text(
            Path(self.filename),
            source,
            project.indexes.for_path(Path(self.filename)),
            name=self.filename,
            config=config,
            edits=False,
        )
        for diagnostic in found:
            text = f"{diagnostic.code} {diagnostic.message}"
            yield diagnostic.line, diagnostic.col - 1, text, type(self)
