"""The real-world corpus: every ``.py`` of the installed standard library and the backends.

Files are listed the way ``ivycheck`` discovers them below a root given on the command line
(the built-in excludes -- ``__pycache__``, ``build``, ``dist``, ``site-packages`` below the
root ... -- still apply), so that a sweep can account for every one. A *sample* is chosen by a
hash of the path relative to its root: deterministic, spread over every package, and the
same on every machine with the same versions installed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sysconfig
from functools import cache
from pathlib import Path

from ivycheck.checker.project.config import Config
from ivycheck.checker.project.discovery import DiscoveryProblem, iter_python_files

PACKAGES = ("numpy", "torch", "jax", "tensorflow")


@cache
def roots() -> dict[str, Path]:
    """Name -> directory: ``stdlib`` and each backend package that is installed."""
    found = {"stdlib": Path(sysconfig.get_paths()["stdlib"])}
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found[name] = Path(next(iter(spec.submodule_search_locations)))
    return found


@cache
def files(name: str) -> tuple[Path, ...]:
    """Every file ``ivycheck <root>`` checks, in discovery order."""
    root = roots()[name]
    problems: list[DiscoveryProblem] = []
    config = Config(root=root.parent, respect_gitignore=False)
    found = tuple(iter_python_files([root], lambda _: config, problems))
    assert not problems, problems
    return found


def _rank(root: Path, path: Path) -> str:
    return hashlib.blake2b(path.relative_to(root).as_posix().encode(), digest_size=8).hexdigest()


def sample(name: str, count: int, max_bytes: int = 60_000) -> list[Path]:
    """``count`` files of root ``name`` (at most ``max_bytes`` each), chosen by path hash."""
    root = roots()[name]
    small = [p for p in files(name) if _size(p) <= max_bytes]
    return sorted(small, key=lambda p: _rank(root, p))[:count]


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0
