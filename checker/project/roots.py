"""Where a project starts when no configuration file says so.

Invariant: a file's project root depends on where the file is, never on the working
directory of the run. The root decides the paths patterns see, the files the cross-file
rules see and where the result cache is written; taken from the working directory, a run
from a subfolder lost cross-file findings, and a run from an unrelated folder indexed
(and wrote a cache into) that folder.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
"""What marks a project's top folder when no configuration says where it is."""


def own_folder(path: Path) -> Path:
    """``path`` itself if it is a folder, else the folder holding it (absolute)."""
    absolute = Path(os.path.abspath(path))
    return absolute if absolute.is_dir() else absolute.parent


def marker_root(path: Path) -> Path:
    """The root of ``path``'s project found from the path alone: the nearest folder above
    it holding a project marker (:data:`PROJECT_MARKERS`); else the top-level package
    holding it (the last folder going up through ``__init__.py`` files, a folder without
    one inside a package counting as part of it, as PEP 420 has it); else its own folder. Neither the filesystem root nor the home directory is ever taken: indexing
    them would read every Python file the user owns."""
    directory = own_folder(path)
    too_wide = {Path(directory.anchor), Path.home()}
    for candidate in (directory, *directory.parents):
        if candidate in too_wide:
            break
        if any(os.path.lexists(candidate / marker) for marker in PROJECT_MARKERS):
            return candidate
    package: Path | None = None
    for candidate in (directory, *directory.parents):
        if candidate in too_wide:
            break
        if (candidate / "__init__.py").is_file():
            package = candidate
        elif not (candidate.parent / "__init__.py").is_file():
            break  # neither a package nor a namespace portion of one
    return package if package is not None else directory


def contains(folder: Path, path: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies below it (both made absolute)."""
    outer, inner = Path(os.path.abspath(folder)), Path(os.path.abspath(path))
    return inner == outer or outer in inner.parents
