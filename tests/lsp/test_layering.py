"""The server stays a thin translation layer over the engine."""

from __future__ import annotations

from pathlib import Path


def test_server_module_has_no_rule_logic() -> None:
    """Handlers translate; rules live in rules/ (a guard against logic creeping in)."""
    source = (Path(__file__).parents[2] / "lsp" / "server.py").read_text()
    assert "import libcst" not in source
    assert "IVY005" not in source
