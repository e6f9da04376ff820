"""A loose file in the home folder or the temporary folder is a project of its own.

Those folders hold many unrelated projects. Taken as the root of a file lying directly in
one, a run indexed every Python file below it, wrote ``.ivycheck_cache`` into it and failed
(exit 2) on an unrelated project's broken ``pyproject.toml``. Now the file is checked alone:
the findings and exit status of a copy of it in a project of its own, nothing written
beside it, no configuration read in or above the folder; from the command, flake8 and the
language server. ``HOME`` and ``TMPDIR`` point at folders of the test's own (and
``XDG_CACHE_HOME``, where the cache keeps its key, elsewhere).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_ivycheck, write_tree
from tests.integrations.test_flake8 import BAD_ORDER

LOOSE = BAD_ORDER
"""One finding of its own (IVY005 on line 2)."""

BROKEN_TOML = "[tool.ivycheck\n"
FLAKE8 = Path(sys.executable).with_name("flake8")


def _wide_folder(tmp_path: Path, which: str) -> tuple[Path, dict[str, str]]:
    """A stand-in for the home or temporary folder, holding a loose file, an unrelated
    project whose ``pyproject.toml`` does not parse, and a broken one above it."""
    folder = tmp_path / "wide" / which
    write_tree(
        folder,
        {
            "loose.py": LOOSE,
            "other/pyproject.toml": BROKEN_TOML,
            "other/module.py": "x = 1\n",
            "pkg/__init__.py": "",
            "pkg/api.py": "def tan(x):\n    return x\n",
        },
    )
    (tmp_path / "wide" / "pyproject.toml").write_text(BROKEN_TOML, encoding="utf-8")
    variable = "HOME" if which == "home" else "TMPDIR"
    # The user's cache folder (the cache's key) is not the folder under test.
    return folder, {variable: str(folder), "XDG_CACHE_HOME": str(tmp_path / "user-cache")}


def _alone(tmp_path: Path) -> tuple[int, list[tuple[int, str]]]:
    """The exit status and findings of the same file in a project of its own."""
    root = write_tree(tmp_path / "alone", {"loose.py": LOOSE, "pyproject.toml": ""})
    done = run_ivycheck("--no-cache", "--format", "json", "loose.py", cwd=root)
    return done.returncode, _findings(done.stdout)


def _findings(stdout: str) -> list[tuple[int, str]]:
    return sorted((d["location"]["row"], d["code"]) for d in json.loads(stdout))


def _written(folder: Path) -> set[str]:
    return {name for name in os.listdir(folder) if name.startswith(".")}


@pytest.mark.parametrize("which", ["home", "temporary folder"])
def test_the_command_checks_a_loose_file_alone(tmp_path: Path, which: str) -> None:
    folder, env = _wide_folder(tmp_path, which)
    expected = _alone(tmp_path)
    assert expected == (1, [(2, "IVY005")])
    for extra in (["--no-cache"], []):
        done = run_ivycheck(*extra, "--format", "json", "loose.py", cwd=folder, env=env)
        assert (done.returncode, _findings(done.stdout)) == expected, done.stderr
        assert "Traceback" not in done.stderr
    assert _written(folder) == set()  # no .ivycheck_cache
    shown = run_ivycheck("--show-files", "loose.py", cwd=folder, env=env)
    assert [line.split("\t")[0] for line in shown.stdout.splitlines()] == ["loose.py"]


@pytest.mark.parametrize("which", ["home", "temporary folder"])
def test_flake8_checks_a_loose_file_alone(tmp_path: Path, which: str) -> None:
    folder, env = _wide_folder(tmp_path, which)
    done = subprocess.run(
        [str(FLAKE8), "--select", "IVY", "loose.py"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )
    assert done.returncode == 1, done.stderr
    assert [line.split(" ", 2)[:2] for line in done.stdout.splitlines()] == [
        ["loose.py:2:1:", "IVY005"]
    ]
    assert "Traceback" not in done.stderr
    assert _written(folder) == set()


def test_a_project_below_the_home_folder_still_has_its_root(tmp_path: Path) -> None:
    """Only the folder itself is refused: a project inside it is found as before, and its
    settings are read (the search for them stops below the home folder)."""
    folder, env = _wide_folder(tmp_path, "home")
    project = write_tree(
        folder / "proj",
        {"pyproject.toml": "[tool.ivycheck]\nignore = ['IVY005']\n", "sub/loose.py": LOOSE},
    )
    done = run_ivycheck("--format", "json", "sub/loose.py", cwd=project, env=env)
    assert (done.returncode, _findings(done.stdout)) == (0, []), done.stderr
    assert (project / ".ivycheck_cache").is_dir()
    assert _written(folder) == set()


@pytest.mark.asyncio
async def test_the_language_server_checks_a_loose_file_alone(tmp_path: Path) -> None:
    from tests.lsp.harness import open_document, published, server

    folder, env = _wide_folder(tmp_path, "home")
    async with server(folder, env=env) as client:
        document = open_document(client, folder / "loose.py")
        found = await published(client, document, lambda d: len(d) > 0)
        await asyncio.sleep(1.0)  # time to index, and to read settings, were it to do so
        messages = [m.message for m in client.messages]
        published_for = set(client.diagnostics)
    assert [(d.range.start.line, d.code) for d in found] == [(1, "IVY005")]
    assert not [m for m in messages if "TOML" in m]
    assert published_for == {document}
    assert _written(folder) == set()
