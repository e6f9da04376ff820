"""Fixtures shared by every test folder, and the Hypothesis profiles.

``make test`` (the CI gate) runs the property tests derandomized -- the same examples on
every run, so a submission's CI result does not depend on which random draw it got; new
draws are explored by ``make test-explore`` (``--hypothesis-profile=explore``: random
seeds), whose finds become fixed tests. A test's own ``settings(...)`` inherits the profile
loaded here (this module is imported before the test modules).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("ci")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """An empty project root with its own ``[tool.ivycheck]`` table."""
    (tmp_path / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    return tmp_path
