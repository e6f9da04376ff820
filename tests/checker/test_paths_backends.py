"""Any backend name: a folder under ``functional/backends/`` is a backend named by the
folder, and ``backends`` in the configuration accepts any library name. Rules that need no
per-library native-``out`` data run on such a backend; IVY001/IVY003 (numpy/torch data)
do not."""

from __future__ import annotations

import json
from pathlib import Path

from ivycheck.checker.project.config import Config
from tests.helpers import run_ivycheck, write_tree

SOFTSIGN = """\
    import paddle.nn.functional as F


    def softsign(x, /, out=None):
        return F.softsign(x)


    softsign.support_native_out = True
    """

API = """\
    @handle_out_argument
    def softsign(x, /, *, out=None):
        return current_backend(x).softsign(x, out=out)
    """


def _codes(root: Path, *args: str) -> list[tuple[str, str]]:
    done = run_ivycheck("--no-cache", "--format", "json", *args, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted((d["filename"], d["code"]) for d in json.loads(done.stdout))


def test_a_folder_under_backends_is_a_backend_named_by_it(tmp_path: Path) -> None:
    config = Config(root=tmp_path)
    assert config.part_of("ivy/functional/backends/paddle/activations.py") == "backend:paddle"
    assert config.part_of("ivy/functional/backends/mxnet/sub/x.py") == "backend:mxnet"
    assert config.part_of("ivy/functional/backends/numpy/x.py") == "backend:numpy"
    assert config.part_of("ivy/functional/backends/__init__.py") == "other"
    assert config.part_of("ivy/functional/ivy/x.py") == "functional"


def test_rules_needing_no_library_data_run_on_an_unknown_backend(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "ivy/functional/ivy/activations.py": API,
            "ivy/functional/backends/paddle/activations.py": SOFTSIGN,
            "ivy/functional/backends/numpy/activations.py": SOFTSIGN.replace(
                "paddle.nn.functional as F", "numpy as F"
            ),
        },
    )
    paddle = "ivy/functional/backends/paddle/activations.py"
    numpy = "ivy/functional/backends/numpy/activations.py"
    assert _codes(tmp_path, ".") == [
        (numpy, "IVY002"),
        (numpy, "IVY008"),
        (paddle, "IVY002"),
        (paddle, "IVY008"),
    ]


def test_backends_accepts_any_library_name(tmp_path: Path) -> None:
    write_tree(tmp_path, {"lib/pd/activations.py": SOFTSIGN, "lib/mx/__init__.py": ""})
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ivycheck.backends]\npaddle = ['lib/pd/**']\nmxnet = ['lib/mx/**']\n",
        encoding="utf-8",
    )
    assert _codes(tmp_path, ".") == [
        ("lib/pd/activations.py", "IVY002"),
        ("lib/pd/activations.py", "IVY008"),
    ]


def test_a_backend_name_that_is_no_name_is_a_configuration_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.ivycheck.backends]\n'a/b' = ['x/**']\n", encoding="utf-8"
    )
    done = run_ivycheck(".", cwd=tmp_path)
    assert done.returncode == 2
    assert "backends: unknown backend 'a/b'" in done.stderr
