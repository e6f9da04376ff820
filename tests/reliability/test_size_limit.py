"""Files above ``max-file-size`` get one finding saying they were skipped, in the command,
the flake8 plugin and the engine every front end (the language server included) calls."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ivycheck.checker.core.engine import check_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import DEFAULT_MAX_FILE_SIZE, Config
from tests.helpers import run_ivycheck, write_tree

API = "ivy/functional/ivy/elementwise.py"
BAD_ORDER = (
    "@to_native_arrays_and_back\n"
    "@handle_out_argument\n"
    "def tan(x, /, *, out=None):\n"
    "    return current_backend(x).tan(x, out=out)\n"
)


def _padded(size: int) -> str:
    """``BAD_ORDER`` grown to ``size`` bytes with a docstring of non-ASCII text (2 bytes
    a character in UTF-8: the limit counts bytes, not characters)."""
    filler = (size - len(BAD_ORDER) - 8) // 2
    return BAD_ORDER + '"""' + "\u00e9" * filler + '"""\n'


def _project(tmp_path: Path, limit: int | None) -> Path:
    table = "[tool.ivycheck]\n" + (f"max-file-size = {limit}\n" if limit else "")
    return write_tree(tmp_path / "p", {"pyproject.toml": table, API: BAD_ORDER})


@pytest.mark.parametrize("limit", [None, 4000])
def test_a_file_above_the_limit_is_one_finding(tmp_path: Path, limit: int | None) -> None:
    root = _project(tmp_path, limit)
    effective = limit or DEFAULT_MAX_FILE_SIZE
    below = run_ivycheck("--no-cache", API, cwd=root)
    assert "IVY005" in below.stdout
    (root / API).write_text(_padded(effective + 100), encoding="utf-8")
    above = run_ivycheck("--no-cache", API, cwd=root)
    lines = above.stdout.splitlines()
    assert len(lines) == 1 and "IVY000 skipped: the file is" in lines[0], above.stdout
    assert f"more than max-file-size ({effective:,})" in lines[0]
    assert above.returncode == 1
    (root / API).write_text(_padded(effective - 100), encoding="utf-8")
    assert "IVY005" in run_ivycheck("--no-cache", API, cwd=root).stdout


def test_the_flake8_plugin_reports_the_skip(tmp_path: Path) -> None:
    root = _project(tmp_path, 4000)
    (root / API).write_text(_padded(5000), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", "IVY", API],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert [line.split(" ", 2)[1] for line in done.stdout.splitlines()] == ["IVY000"]
    assert "max-file-size" in done.stdout


def test_the_engine_skips_large_text(tmp_path: Path) -> None:
    config = Config(root=tmp_path, max_file_size=4000)
    rules = list(all_rules().values())
    text = _padded(5000)
    [found] = check_source(text, path=API, config=config, rules=rules, relative_path=API)
    assert found.code == "IVY000" and "skipped" in found.message


@pytest.mark.parametrize("value", ["'1MB'", "0", "-5", "true", "1.5"])
def test_a_bad_limit_is_a_configuration_error(tmp_path: Path, value: str) -> None:
    root = _project(tmp_path, None)
    (root / "pyproject.toml").write_text(f"[tool.ivycheck]\nmax-file-size = {value}\n")
    done = run_ivycheck(".", cwd=root)
    assert done.returncode == 2
    assert "max-file-size must be a positive number of bytes" in done.stderr
