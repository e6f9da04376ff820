"""The checker knows the fifth backend (issue 40): a Dask backend folder is a backend like
the other four, whose own ``inplace_update`` decides what ``out`` becomes there (rebinding,
as on JAX), and which counts as defining what an API function delegates to (IVY017)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from ivycheck.rules._fate_examples import UPDATE_REBINDS, WRAPPER_UPDATES_OUT
from tests.helpers import run_ivycheck, write_tree

WRAPPER = textwrap.dedent(WRAPPER_UPDATES_OUT).lstrip()
"""The project's ``handle_out_argument``: writes the result into ``out`` with the update."""

REBINDS = (
    textwrap.dedent(UPDATE_REBINDS).lstrip()
    + """

def tan(x, /, *, out=None):
    return x
"""
)
"""A Dask backend whose update rebinds ``out``, and which defines ``tan``."""

API = """\
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)
"""


def _project(tmp_path: Path, dask_general: str) -> Path:
    return write_tree(
        tmp_path / "project",
        {
            "pyproject.toml": '[project]\nname = "p"\n',
            "ivy/func_wrapper.py": WRAPPER,
            "ivy/functional/ivy/elementwise.py": API,
            "ivy/functional/backends/dask/general.py": dask_general,
        },
    )


def test_the_dask_backend_update_rebinds_out(tmp_path: Path) -> None:
    project = _project(tmp_path, REBINDS)
    done = run_ivycheck("--no-cache", "--show-settings", ".", cwd=project)
    rows = [line for line in done.stdout.splitlines() if line.startswith("# out-fate: dask")]
    assert "# out-fate: dask native single same=rebinds other=rebinds" in rows


def test_a_function_only_dask_defines_is_defined(tmp_path: Path) -> None:
    project = _project(tmp_path, REBINDS)
    defined = run_ivycheck("--no-cache", "--select", "IVY017", ".", cwd=project)
    assert defined.returncode == 0, defined.stdout
    project = _project(tmp_path / "without", REBINDS.replace("def tan(", "def tann("))
    missing = run_ivycheck("--no-cache", "--select", "IVY017", ".", cwd=project)
    assert missing.returncode == 1 and "IVY017" in missing.stdout
