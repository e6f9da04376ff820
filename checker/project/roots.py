"""Where a project starts when no configuration file says so.

Invariant: a file's project root depends on where the file is, never on the working
directory of the run. The root decides the paths patterns see, the files the cross-file
rules see and where the result cache is written; taken from the working directory, a run
from a subfolder lost cross-file findings, and a run from an unrelated folder indexed
(and wrote a cache into) that folder.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
"""What marks a project's top folder when no configuration says where it is."""


def own_folder(path: Path) -> Path:
    """``path`` itself if it is a folder, else the folder holding it (absolute)."""
    absolute = Path(os.path.abspath(path))
    return absolute if absolute.is_dir() else absolute.parent


def too_wide(folder: Path) -> bool:
    """Whether ``folder`` (absolute) is the filesystem root, the home folder or the
    temporary folder: never a project root, nor a place to look for one's configuration.
    Each holds files of many unrelated projects; taken as a root, a loose file there had
    every Python file below indexed (503 in the report), a cache written into the folder
    and an unrelated project's broken ``pyproject.toml`` failing the run."""
    return folder in _wide_folders(folder)


def _wide_folders(folder: Path) -> set[Path]:
    import tempfile  # (here: with shutil, a fortieth of the start-up)

    wide = {Path(folder.anchor), Path(tempfile.gettempdir()), Path("/tmp")}
    with contextlib.suppress(RuntimeError):  # no home folder known (no HOME, no passwd entry)
        wide.add(Path.home())
    return {Path(os.path.abspath(candidate)) for candidate in wide}


def marker_root(path: Path) -> Path:
    """The root of ``path``'s project found from the path alone: the nearest folder above
    it holding a project marker (:data:`PROJECT_MARKERS`); else the top-level package
    holding it (the last folder going up through ``__init__.py`` files, a folder without
    one inside a package counting as part of it, as PEP 420 has it); else its own folder.

    Never a folder :func:`too_wide` (the filesystem root, home, the temporary folder): the
    search stops below them, and a file lying directly in one is a project of its own, so
    its root is the file itself (nothing else is indexed, and no cache folder can be made
    inside a file). Such a folder named itself stays its own root: the user asked for it."""
    absolute = Path(os.path.abspath(path))
    directory = absolute if absolute.is_dir() else absolute.parent
    wide = _wide_folders(directory)
    if directory in wide:
        return absolute
    for candidate in (directory, *directory.parents):
        if candidate in wide:
            break
        if any(os.path.lexists(candidate / marker) for marker in PROJECT_MARKERS):
            return candidate
    package: Path | None = None
    for candidate in (directory, *directory.parents):
        if candidate in wide:
            break
        if (candidate / "__init__.py").is_file():
            package = candidate
        elif not (candidate.parent / "__init__.py").is_file():
            break  # neither a package nor a namespace portion of one
    return package if package is not None else directory


def contains(folder: Path, path: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies below it (both made absolute). Compared as
    normalized strings, not ``Path.parents``: a run asks it for every file it checks."""
    outer, inner = os.path.abspath(folder), os.path.abspath(path)
    return inner == outer or inner.startswith(outer if outer.endswith(os.sep) else outer + os.sep)
