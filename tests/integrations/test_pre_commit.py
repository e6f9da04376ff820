"""The real ``pre-commit try-repo`` with this repository's hooks on a bad file.

pre-commit installs the hooks' ``language: python`` environment with pip from this
repository at ``HEAD`` (the hooks file must be committed; dependencies come from PyPI),
then runs the hooks on a temporary git repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import REPO, run_ivycheck

PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

BAD_ORDER = """\
@to_native_arrays_and_back
@handle_out_argument
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""

GOOD_ORDER = """\
@handle_out_argument
@to_native_arrays_and_back
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""


def _git(*args: str, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_hook_fails_on_a_bad_file_and_fix_hook_fixes_it(tmp_path: Path) -> None:
    target = tmp_path / "target"
    bad = target / "ivy/functional/ivy/a.py"
    bad.parent.mkdir(parents=True)
    bad.write_text(BAD_ORDER, encoding="utf-8")
    (target / "pyproject.toml").write_text("[tool.ivycheck]\n", encoding="utf-8")
    _git("init", "-q", cwd=target)
    _git("add", ".", cwd=target)
    ref = _git("rev-parse", "HEAD", cwd=REPO)
    environment = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "home"), "NO_COLOR": "1"}
    environment.pop("VIRTUAL_ENV", None)

    def hook(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                *(str(PRE_COMMIT), "try-repo", str(REPO), name, "--ref", ref),
                *("--files", "ivy/functional/ivy/a.py", "--color", "never"),
            ],
            cwd=target,
            capture_output=True,
            text=True,
            env=environment,
            timeout=300,
        )

    checked = hook("ivycheck")
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "ivy/functional/ivy/a.py:2:1: IVY005 " in checked.stdout
    assert bad.read_text(encoding="utf-8") == BAD_ORDER

    fixed = hook("ivycheck-fix")
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # files were modified
    assert "files were modified by this hook" in fixed.stdout
    assert bad.read_text(encoding="utf-8") == GOOD_ORDER

    assert run_ivycheck("--no-cache", ".", cwd=target).returncode == 0
