"""The server's workspace model without the transport: the orderings a real editor produces.

A document can be opened, and checked, before the workspace scan has finished; the scan
then brings in the backends that cross-file rules need. The second check must see them
even though the document's text did not change (its cached per-definition results are
keyed on the index generation, which every scan advances).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ivycheck.checker.run.projects import Projects
from tests.helpers import write_tree
from tests.lsp.harness import NUMPY_TAN

API = """\
@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
def erf(x, /, *, out=None):
    return current_backend(x).erf(x, out=out)
"""
API_PATH = "ivy/functional/ivy/special.py"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An API file delegating ``erf`` and a numpy backend that does not define it."""
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.ivycheck]\n",
            API_PATH: API,
            "ivy/functional/backends/numpy/special.py": NUMPY_TAN,
        },
    )


def test_a_scan_after_the_first_check_reaches_the_open_document(workspace: Path) -> None:
    api = workspace / API_PATH
    project = Projects(tolerant=True)
    project.update(api, API)
    # No backend is known yet: IVY017 stays quiet rather than guess.
    assert [d.code for d in project.check(api, API)] == []
    for _ in range(20):  # enough rebuilds for CPython to hand out a freed index's id again
        project.scan([workspace])
        found = project.check(api, API)
        assert [d.code for d in found] == ["IVY017"]
        assert "numpy" in found[0].message


def test_configuration_reload_invalidates_cached_results(workspace: Path) -> None:
    api = workspace / API_PATH
    project = Projects(tolerant=True)
    project.scan([workspace])
    assert [d.code for d in project.check(api, API)] == ["IVY017"]
    (workspace / "pyproject.toml").write_text('[tool.ivycheck]\nignore = ["IVY017"]\n')
    project.forget_configs()
    assert project.check(api, API) == []


OWN_FINDING = """\
@handle_out_argument
def sinh(x, out=None):
    return current_backend(x).sinh(x, out=out)
"""
"""IVY008 (``out`` not keyword-only): a finding of the file alone."""


def test_a_documents_first_check_waits_for_no_walk_of_its_project(workspace: Path) -> None:
    """The server's first answer needs no index: neither the document's check nor
    ``begin_scan`` walks the project; the scan's steps do, then index what they find."""
    api = workspace / "ivy/functional/ivy/own.py"
    api.write_text(OWN_FINDING)
    project = Projects(tolerant=True)
    project.begin_scan([workspace])
    project.update(api, OWN_FINDING)
    assert [d.code for d in project.check(api, OWN_FINDING)] == ["IVY008"]
    assert project.closed_files([api], [workspace]) == []  # no file of the project found yet
    assert project.scanning and not project.indexed(api)
    while not project.scan_step(float("inf")):
        pass
    assert project.closed_files([api], [workspace]) == [
        workspace / "ivy/functional/backends/numpy/special.py",
        workspace / API_PATH,
    ]
    assert project.indexed(api)
    assert sorted(d.code for d in project.check(api, OWN_FINDING)) == ["IVY008", "IVY017"]
