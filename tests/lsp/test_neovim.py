"""The README's Neovim snippet works in a real Neovim (issue 22 item 8: the earlier one,
``vim.lsp.start``, fails on Neovim 0.7, Debian 12's): the snippet is taken from the README,
Neovim runs it headless on an API file, and the file's IVY005 arrives. Skipped when no
``nvim`` is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import write_tree
from tests.lsp.harness import SPECIAL_API

ROOT = Path(__file__).resolve().parents[2]
NVIM = shutil.which("nvim")
PROBE = """\
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local codes = {}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(codes, tostring(d.code)) end
io.stdout:write("CODES " .. table.concat(codes, ",") .. "\\n")
vim.cmd("qall!")
"""


def readme_snippet() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```lua\n(.*?)```", readme, re.S)
    assert blocks, "the README has no Neovim (lua) snippet"
    return blocks[0]


@pytest.mark.skipif(NVIM is None, reason="no nvim installed")
def test_readme_snippet_attaches_the_server_in_neovim(tmp_path: Path) -> None:
    assert NVIM is not None
    work = write_tree(
        tmp_path / "project",
        {"pyproject.toml": "[tool.ivycheck]\n", "ivy/functional/ivy/a.py": SPECIAL_API},
    )
    (tmp_path / "init.lua").write_text(readme_snippet())
    (tmp_path / "probe.lua").write_text(PROBE)
    # `ivycheck` as a user has it: on PATH, the environment running the tests.
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env["XDG_STATE_HOME"] = env["XDG_DATA_HOME"] = str(tmp_path / "state")
    done = subprocess.run(
        [
            NVIM,
            "--headless",
            "-u",
            str(tmp_path / "init.lua"),
            "-c",
            "filetype on",
            "ivy/functional/ivy/a.py",
            "-c",
            f"luafile {tmp_path / 'probe.lua'}",
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    output = done.stdout + done.stderr
    assert "CODES IVY005" in output, output
