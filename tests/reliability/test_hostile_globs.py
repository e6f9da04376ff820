"""A pattern a repository brings never hangs a run, and a ``.gitignore`` line never breaks one.

``exclude = ["a*" * 20 + "b"]`` (or the same in ``per-file-ignores``) against a file name of
60 characters ran past 120 s: pathspec's regular expressions backtrack. A ``.gitignore`` line
git cannot use (a lone trailing ``\\``) made pathspec raise mid-walk. Each case now gives the
findings and exit status of the same tree without it, from the command, flake8 and the
language server. The assertions are on results; ``benchmarks/glob_matching.py`` has the times.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_ivycheck, write_tree
from tests.integrations.test_flake8 import BAD_ORDER

HOSTILE = "a*" * 20 + "b"
NAME = "a" * 60 + ".py"
FINDING = BAD_ORDER
FLAKE8 = Path(sys.executable).with_name("flake8")


def _project(tmp_path: Path, pyproject: str, gitignore: str = "") -> Path:
    return write_tree(
        tmp_path / "project",
        {
            "pyproject.toml": pyproject,
            ".gitignore": gitignore,
            NAME: FINDING,
            "sub/" + NAME: FINDING,
            "ignored/x.py": FINDING,
        },
    )


CASES = {
    "exclude": f"[tool.ivycheck]\nexclude = ['{HOSTILE}']\n",
    "per-file-ignores": f"[tool.ivycheck.per-file-ignores]\n'{HOSTILE}' = ['IVY005']\n",
    "backends": f"[tool.ivycheck.backends]\nnumpy = ['{HOSTILE}']\n",
}


def _findings(stdout: str) -> list[tuple[str, int, str]]:
    return sorted(
        (Path(d["filename"]).name, d["location"]["row"], d["code"]) for d in json.loads(stdout)
    )


@pytest.mark.parametrize("key", CASES)
def test_the_command_and_flake8_with_a_hostile_pattern(tmp_path: Path, key: str) -> None:
    root = _project(tmp_path, CASES[key], gitignore="ignored/\n")
    done = run_ivycheck("--no-cache", "--format", "json", ".", cwd=root)
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert _findings(done.stdout) == [(NAME, 2, "IVY005"), (NAME, 2, "IVY005")]
    flake8 = subprocess.run(
        [str(FLAKE8), "--ivycheck-no-cache", "--select", "IVY", NAME, f"sub/{NAME}"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in flake8.stderr
    assert flake8.returncode == 1, flake8.stderr
    assert [line.split(" ", 2)[1] for line in flake8.stdout.splitlines()] == ["IVY005"] * 2


def test_a_gitignore_line_git_cannot_use_is_skipped(tmp_path: Path) -> None:
    root = _project(tmp_path, "[tool.ivycheck]\n", gitignore="ignored/\nfoo\\\n[z-a]\n")
    done = run_ivycheck("--no-cache", "--format", "json", ".", cwd=root)
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert _findings(done.stdout) == [(NAME, 2, "IVY005"), (NAME, 2, "IVY005")]


@pytest.mark.asyncio
async def test_the_language_server_with_a_hostile_pattern(tmp_path: Path) -> None:
    from tests.lsp.harness import open_document, published, server

    root = _project(tmp_path, CASES["per-file-ignores"], gitignore="ignored/\nfoo\\\n")
    async with server(root) as client:
        document = open_document(client, root / "sub" / NAME)
        found = await published(client, document, lambda d: len(d) > 0, timeout=60)
    assert [(d.range.start.line, d.code) for d in found] == [(1, "IVY005")]
