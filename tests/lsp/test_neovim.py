"""The README's Neovim snippet works in a real Neovim (issue 22 item 8: the earlier one,
``vim.lsp.start``, fails on Neovim 0.7, Debian 12's): the snippet is taken from the README,
Neovim runs it headless on an API file, the file's IVY005 arrives, and Neovim's own
``vim.lsp.buf.code_action()`` offers the quick fix with the cursor at the start of a
flagged line (issue 39 item 6). Skipped when no ``nvim`` is installed."""

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
from tests.lsp.test_server import BAD_ORDER, FLIP

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


def run_neovim(tmp_path: Path, source: str, probe: str) -> str:
    """Neovim, headless, with the README's snippet, on ``ivy/functional/ivy/a.py`` holding
    ``source``, running the Lua ``probe``: what it printed."""
    assert NVIM is not None
    work = write_tree(
        tmp_path / "project",
        {"pyproject.toml": "[tool.ivycheck]\n", "ivy/functional/ivy/a.py": source},
    )
    (tmp_path / "init.lua").write_text(readme_snippet())
    (tmp_path / "probe.lua").write_text(probe)
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
    return done.stdout + done.stderr


@pytest.mark.skipif(NVIM is None, reason="no nvim installed")
def test_readme_snippet_attaches_the_server_in_neovim(tmp_path: Path) -> None:
    output = run_neovim(tmp_path, SPECIAL_API, PROBE)
    assert "CODES IVY005" in output, output


ACTIONS_PROBE = """\
vim.wait(60000, function() return #vim.diagnostic.get(0) >= 2 end, 50)
local line
for _, d in ipairs(vim.diagnostic.get(0)) do
  if tostring(d.code) == "IVY006" then line = d.lnum end
end
vim.api.nvim_win_set_cursor(0, {line + 1, 0})
local answered = false
vim.ui.select = function(items, opts, on_choice)
  for _, item in ipairs(items) do
    local action = item[2]
    io.stdout:write("ACTION " .. action.title .. "\\n")
  end
  answered = true
end
vim.notify = function(message) io.stdout:write("NOTIFY " .. message .. "\\n"); answered = true end
vim.lsp.buf.code_action()
vim.wait(30000, function() return answered end, 50)
vim.cmd("qall!")
"""
"""The cursor at column 0 of the line of ``flip``'s IVY006 (which starts at the name),
then Neovim's own code-action request; the offered titles are printed where Neovim
would list them (``vim.ui.select``), or its "no code actions" notice."""


@pytest.mark.skipif(NVIM is None, reason="no nvim installed")
def test_neovim_offers_the_fix_with_the_cursor_at_the_line_start(tmp_path: Path) -> None:
    output = run_neovim(tmp_path, BAD_ORDER + FLIP, ACTIONS_PROBE)
    offered = [line.removeprefix("ACTION ") for line in output.splitlines() if "ACTION " in line]
    assert any(title.endswith("(IVY006)") for title in offered), output
    assert "Suppress IVY006 on this line" in offered, output
