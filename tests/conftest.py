"""Fixtures shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project root with its own ``[tool.ivycheck]`` table."""
    (tmp_path / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    return tmp_path
