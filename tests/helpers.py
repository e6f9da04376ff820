"""Shared test helpers: running the real ``ivycheck`` process, writing small projects, loading
the project's scripts."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

IVYCHECK = Path(sys.executable).with_name("ivycheck")
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str


def run_ivycheck(
    *args: str | Path,
    cwd: Path,
    stdin: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Completed:
    """Run the installed ``ivycheck`` console script as a user would."""
    environment = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    environment.update({"NO_COLOR": "1", **(env or {})})
    done = subprocess.run(
        [str(IVYCHECK), *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    return Completed(done.returncode, done.stdout, done.stderr)


def write_tree(root: Path, files: Mapping[str, str]) -> Path:
    for relative, content in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def load_script(path: Path, name: str) -> ModuleType:
    """The module of a script or benchmark (``scripts/``, ``benchmarks/``: no package),
    loaded from ``path`` as ``name``, registered in ``sys.modules`` first (dataclasses
    look their module up while the class is built)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
