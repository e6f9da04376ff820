"""A warm cache gives the findings of a cold run after the project's layout changes.

Summaries are cached per file; the layout settings (``functional-api``, ``backends``) decide
each file's part, which the other files read through the index. A summary kept from before
the change would describe a backend file as ``other``, and the cross-file rules would go
quiet (IVY017: a backend lacks a function the API delegates to).
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_ivycheck, write_tree

API = """\
from mylib.func_wrapper import handle_out_argument, to_native_arrays_and_back


@handle_out_argument
@to_native_arrays_and_back
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)


@handle_out_argument
@to_native_arrays_and_back
def sin(x, /, *, out=None):
    return current_backend(x).sin(x, out=out)
"""

NUMPY = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


tan.support_native_out = True
"""

LAYOUT = """\
functional-api = ["mylib/api/**"]
backends = { numpy = ["mylib/backends/numpy/**"] }
"""


def _findings(project: Path, *options: str) -> list[str]:
    done = run_ivycheck("--quiet", *options, ".", cwd=project)
    assert done.returncode in (0, 1), done.stderr
    return sorted(done.stdout.splitlines())


def test_layout_settings_change_reaches_cached_summaries(project: Path) -> None:
    write_tree(project, {"mylib/api/math.py": API, "mylib/backends/numpy/math.py": NUMPY})
    _findings(project)  # fills the cache under the default layout
    config = project / "pyproject.toml"
    config.write_text(config.read_text() + LAYOUT)
    cold = _findings(project, "--no-cache")
    assert any("IVY017" in line for line in cold), cold
    assert _findings(project) == cold
