"""The checker is the bottom layer of the command: it never imports the language server."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

CHECKER = Path(__file__).parents[2] / "checker"


def _imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
    return found


def test_no_checker_module_imports_the_language_server() -> None:
    upward = {
        path.name: name
        for path in sorted(CHECKER.glob("*.py"))
        for name in _imports(path)
        if name == "ivycheck.lsp" or name.startswith("ivycheck.lsp.")
    }
    assert upward == {}


def test_ivycheck_lsp_still_starts_the_language_server() -> None:
    """``ivycheck lsp`` is dispatched by the top-level command, above checker and server."""
    done = subprocess.run(
        [sys.executable, "-m", "ivycheck", "lsp", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: ivycheck lsp" in done.stdout
    assert "--tcp" in done.stdout
