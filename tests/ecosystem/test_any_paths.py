"""On the shared Ivy corpus, ``ivycheck <one backend file>`` (and a backend folder) reports
exactly what the whole-tree run reports for it: cross-file rules read the whole project's
index whatever paths are given (the corpus has no configuration: its top-level package
``ivy/`` is the project)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_ivycheck

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "ivy-975c8fc"
FILES = (
    "ivy/functional/backends/paddle/activations.py",
    "ivy/functional/backends/numpy/statistical.py",
    "ivy/functional/backends/torch/elementwise.py",
    "ivy/functional/backends/jax/experimental/statistical.py",
    "ivy/functional/backends/tensorflow/general.py",
)


def _findings(*args: str, cache: Path) -> list[dict[str, Any]]:
    done = run_ivycheck(
        "--format", "json", "--exit-zero", "-q", *args, cwd=CORPUS,
        env={"IVYCHECK_CACHE_DIR": str(cache)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _of(found: list[dict[str, Any]], prefix: str) -> list[tuple[str, int, int, str, str]]:
    return sorted(
        (d["filename"], d["location"]["row"], d["location"]["column"], d["code"], d["message"])
        for d in found
        if d["filename"].startswith(prefix)
    )


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    if not (CORPUS / "ivy").is_dir():
        pytest.fail(f"the shared Ivy corpus is missing: expected {CORPUS}")
    yield _findings("--no-cache", "ivy", cache=tmp_path_factory.mktemp("unused"))


@pytest.mark.parametrize("path", FILES)
def test_one_file_gets_its_whole_tree_findings(
    whole: list[dict[str, Any]], path: str, tmp_path: Path
) -> None:
    assert _of(_findings("--no-cache", path, cache=tmp_path), path) == _of(whole, path)


def test_a_backend_folder_gets_its_whole_tree_findings_and_the_cache_agrees(
    whole: list[dict[str, Any]], tmp_path: Path
) -> None:
    folder = "ivy/functional/backends/numpy/"
    expected = _of(whole, folder)
    assert len(expected) > 10
    assert _of(_findings(folder, cache=tmp_path), folder) == expected  # cold cache
    assert _of(_findings(folder, cache=tmp_path), folder) == expected  # warm
    assert _of(_findings(FILES[1], cache=tmp_path), FILES[1]) == _of(whole, FILES[1])
