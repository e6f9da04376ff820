"""Whether any installed distribution may declare entry points of a group, without
importing :mod:`importlib.metadata`.

Importing :mod:`importlib.metadata` (it pulls in ``email``, ``zipfile``, ``csv`` and
friends) costs about 35 ms of CPU, a few percent of a whole cold run and most of what a
plug-in lookup costs in a process that finds no plug-in, which is nearly every run.
Listing the ``*.dist-info`` / ``*.egg-info`` folders of ``sys.path`` and reading their
``entry_points.txt`` costs about 1 ms for a hundred distributions. The answer here is a
superset: it says "maybe" whenever the group's name occurs in any such file, or whenever
distributions could come from somewhere it does not look (a ``sys.path`` entry that is not
a folder, such as a zip archive, or a meta-path finder other than the standard path finder
that can find distributions); the caller then asks :mod:`importlib.metadata`, which decides.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import PathFinder

_METADATA_FOLDERS = (".dist-info", ".egg-info")


def may_declare(group: str) -> bool:
    """``False`` only when no distribution on ``sys.path`` can declare entry points of
    ``group``; ``True`` means "ask :mod:`importlib.metadata`"."""
    if any(
        finder is not PathFinder and hasattr(finder, "find_distributions")
        for finder in sys.meta_path
    ):
        return True
    needle = group.encode()
    for entry in sys.path:
        folder = entry or os.curdir
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True  # an archive on the path: only importlib.metadata reads it
            continue
        try:
            listing = os.scandir(folder)
        except OSError:
            continue
        # As importlib.metadata reads a folder: names in any case, and a folder egg's
        # own ``EGG-INFO``.
        is_egg = os.path.basename(entry).lower().endswith(".egg")
        with listing:
            for found in listing:
                name = found.name.lower()
                metadata = name.endswith(_METADATA_FOLDERS) or (is_egg and name == "egg-info")
                if metadata and _names(found.path, needle):
                    return True
    return False


def _names(metadata_folder: str, needle: bytes) -> bool:
    try:
        with open(os.path.join(metadata_folder, "entry_points.txt"), "rb") as declared:
            return needle in declared.read()
    except OSError:
        return False
