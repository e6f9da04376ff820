"""The same answer for any paths: a file's findings do not depend on which paths name it.

Cross-file rules read the index of the whole project (the configuration root, or the
project root found without one); only the files under the given paths are reported. Each
test runs the real ``ivycheck`` command and compares, file by file, with ``ivycheck .``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ivycheck.checker.project.discovery import outermost, project_root
from tests.helpers import run_ivycheck, write_tree

API = "ivy/functional/ivy/api.py"
TORCH = "ivy/functional/backends/torch/api.py"
NUMPY = "ivy/functional/backends/numpy/api.py"
JAX = "ivy/functional/backends/jax/api.py"

PROJECT = {
    API: """\
        @handle_out_argument
        @to_native_arrays_and_back
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)


        def scatter(x, indices, /, *, out=None):
            return current_backend(x).scatter(x, indices, out=out)


        def erf(x, /):
            return current_backend(x).erf(x)


        def erfinv(x, /):
            return current_backend(x).erfinv(x)
        """,
    NUMPY: """\
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)


        tan.support_native_out = True
        """,
    TORCH: """\
        import torch


        def tan(x, /, *, out=None):
            return torch.tan(x, out=out)


        tan.support_native_out = True


        def erf(x, /):
            return torch.erf(x)
        """,
    JAX: """\
        import jax.numpy as jnp


        def tan(x, /, *, out=None):
            return jnp.tan(x)


        tan.support_native_out = True


        def scatter(x, indices, /, *, out=None):
            return x.at[indices].set(out)


        scatter.support_native_out = True
        """,
}
"""Cross-file facts both ways: IVY017 on ``erfinv`` (no backend defines it) needs the
backends in the index (a run over the API file alone would say nothing, one over the API
and torch "seen: torch"), ``erf`` is quiet only if torch's file is indexed, and IVY002 on
JAX's ``scatter`` is exempt only when the API function (no ``@handle_out_argument``) is
in the index."""


def _findings(*args: str, cwd: Path) -> list[dict[str, Any]]:
    done = run_ivycheck("--format", "json", "--exit-zero", "-q", *args, cwd=cwd)
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _by_file(found: list[dict[str, Any]], path: str) -> list[tuple[int, int, str, str]]:
    return sorted(
        (d["location"]["row"], d["location"]["column"], d["code"], d["message"])
        for d in found
        if Path(d["filename"]).as_posix().removeprefix("./") == path
    )


@pytest.fixture
def configured(tmp_path: Path) -> Path:
    write_tree(tmp_path, PROJECT)
    (tmp_path / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("cache", [True, False])
def test_one_file_and_one_folder_get_what_the_whole_tree_gets(
    configured: Path, cache: bool
) -> None:
    flags = [] if cache else ["--no-cache"]
    whole = _findings(*flags, ".", cwd=configured)
    codes = {(Path(d["filename"]).as_posix(), d["code"]) for d in whole}
    assert (API, "IVY017") in codes  # erfinv
    assert "numpy" in next(d["message"] for d in whole if d["code"] == "IVY017")
    assert not [d for d in whole if d["code"] == "IVY002" and "scatter" in d["message"]]
    for path in PROJECT:
        alone = _findings(*flags, path, cwd=configured)
        assert _by_file(alone, path) == _by_file(whole, path), path
        assert {d["filename"] for d in alone} <= {path}  # only the given file is reported
        folder = str(Path(path).parent)
        assert _by_file(_findings(*flags, folder, cwd=configured), path) == _by_file(whole, path)


def test_from_a_subfolder_and_with_absolute_paths(configured: Path) -> None:
    whole = _findings("--no-cache", ".", cwd=configured)
    inside = configured / "ivy/functional/backends/jax"
    assert _by_file(_findings("--no-cache", "api.py", cwd=inside), "api.py") == _by_file(whole, JAX)
    absolute = _findings("--no-cache", str(configured / API), cwd=configured.parent)
    assert _by_file(absolute, (configured / API).as_posix()) == _by_file(whole, API)


def test_without_a_configuration_the_package_around_the_paths_is_indexed(tmp_path: Path) -> None:
    """No ``pyproject.toml``, no marker: the top-level package (``ivy/``) is the project."""
    tree = write_tree(tmp_path / "checkout", PROJECT)
    for folder in ("ivy", "ivy/functional", "ivy/functional/ivy", "ivy/functional/backends"):
        (tree / folder / "__init__.py").write_text("", encoding="utf-8")
    whole = _findings("--no-cache", "ivy", cwd=tree)
    assert any(d["code"] == "IVY017" for d in whole)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for path in (API, JAX):
        alone = _findings("--no-cache", str(tree / path), cwd=elsewhere)
        assert _by_file(alone, (tree / path).as_posix()) == _by_file(whole, path), path


def test_project_root_without_configuration(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    package = tmp_path / "repo/src/pkg/sub"
    package.mkdir(parents=True)
    for folder in (tmp_path / "repo/src/pkg", package):
        (folder / "__init__.py").write_text("", encoding="utf-8")
    module = package / "m.py"
    module.write_text("", encoding="utf-8")
    # No marker: the top-level package.
    assert project_root(module, None) == tmp_path / "repo/src/pkg"
    # A marker above wins: the project, not only the package.
    (tmp_path / "repo/.git").mkdir()
    assert project_root(module, None) == tmp_path / "repo"
    # Not in a package, no marker: the path's own folder, whatever the working directory
    # (never the filesystem root or the home directory).
    loose = tmp_path / "scripts/tool.py"
    loose.parent.mkdir()
    loose.write_text("", encoding="utf-8")
    assert project_root(loose, None) == tmp_path / "scripts"
    monkeypatch.chdir(Path(tmp_path.anchor))
    assert project_root(loose, None) == tmp_path / "scripts"
    assert project_root(Path(tmp_path.anchor), None) == Path(tmp_path.anchor)
    # A configuration's root, for paths inside it.
    assert project_root(module, tmp_path / "repo/src") == tmp_path / "repo/src"
    assert project_root(loose, tmp_path / "repo") == tmp_path / "scripts"


def test_outermost_keeps_folders_not_inside_another(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert outermost([a / "x", a, b / "y", a / "x" / "z", b / "y"]) == [a, b / "y"]
    assert outermost([Path(os.curdir)]) == [Path(os.path.abspath(os.curdir))]
