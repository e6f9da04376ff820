"""The installed distribution: its name, its version and what it pulls in.

``ivycheck`` on PyPI is an unrelated project, so the distribution is ``ivycheck-lint`` while
the command and the import package stay ``ivycheck``; every install instruction a user can
read must name what really installs this project.
"""

from __future__ import annotations

import os
import re
from importlib import metadata
from pathlib import Path

import pytest

import ivycheck
from tests.helpers import REPO

DISTRIBUTION = "ivycheck-lint"
CHECKER_DEPENDENCIES = {"libcst", "pygls", "lsprotocol"}


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match is not None, requirement
    return match.group(0).lower().replace("_", "-")


def test_version_is_the_installed_distributions() -> None:
    assert ivycheck.__version__ == metadata.version(DISTRIBUTION)


def test_the_distribution_provides_the_ivycheck_command_and_package() -> None:
    dist = metadata.distribution(DISTRIBUTION)
    scripts = {e.name: e.value for e in dist.entry_points if e.group == "console_scripts"}
    assert scripts["ivycheck"] == "ivycheck.cli:main"
    assert Path(ivycheck.__file__).parent.name == "ivycheck"


def test_the_checker_does_not_require_an_array_library() -> None:
    requires = metadata.requires(DISTRIBUTION) or []
    unconditional = {_requirement_name(r) for r in requires if "extra ==" not in r}
    assert unconditional == CHECKER_DEPENDENCIES
    runtime = {_requirement_name(r) for r in requires if re.search(r"extra == .runtime.", r)}
    assert runtime == {"numpy"}


INSTRUCTIONS = [
    "README.md",
    "docs/install.md",
    "editors/vscode/README.md",
    "editors/vscode/src/extension.ts",
]


@pytest.mark.parametrize("relative", INSTRUCTIONS)
def test_no_instruction_installs_the_unrelated_ivycheck(relative: str) -> None:
    text = (REPO / relative).read_text(encoding="utf-8")
    wrong = re.findall(r"pip install (?:-U |--upgrade )?[\"']?ivycheck(?![-\w])[^\n]*", text)
    assert wrong == []


def test_readme_names_the_design_in_the_repository() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    links = re.findall(r"\]\((docs/[^)#]+)", readme)
    assert "docs/design.md" in links
    for link in links:
        assert (REPO / link).is_file(), link


@pytest.mark.slow
def test_a_machine_without_a_compiler_still_installs(tmp_path: Path) -> None:
    # The runtime's C paths are an optional extension: with a compiler that fails, the wheel
    # is built without it (the runtime then runs its Python paths, tests/runtime/test_speedups).
    import subprocess
    import sys
    import zipfile

    env = {**os.environ, "CC": "/bin/false"}
    env.pop("IVYCHECK_PURE_PYTHON", None)
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    subprocess.run(
        [*pip_wheel, "--no-build-isolation", str(REPO), "-w", str(tmp_path)],
        env=env,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ivycheck/runtime/speedups.py" in names and "ivycheck/runtime/_speedups.c" in names
    assert not [
        n for n in names if n.startswith("ivycheck/runtime/_speedups.") and n.endswith(".so")
    ]
