"""An open document's check does the least an edit needs (``lsp/buffers.py``): no work for
a replaced text, no second summary of the same text, the last summary that parsed kept
while the buffer does not, and the same text against the same index answered again."""

from __future__ import annotations

import os
from pathlib import Path

from ivycheck.checker.run.projects import Projects
from ivycheck.lsp.buffers import Buffers

API = "ivy/functional/ivy/elementwise.py"
GOOD = "def tan(x, /, *, out=None):\n    return current_backend(x).tan(x, out=out)\n"
BROKEN = "def tan(x, /, *, out=None:\n    return current_backend(x).tan(x, out=out)\n"


def workspace(tmp_path: Path) -> tuple[Projects, Buffers, Path]:
    (tmp_path / "pyproject.toml").write_text("[tool.ivycheck]\n")
    path = tmp_path / API
    path.parent.mkdir(parents=True)
    path.write_text(GOOD)
    backend = tmp_path / "ivy/functional/backends/numpy/elementwise.py"
    backend.parent.mkdir(parents=True)
    backend.write_text("import numpy as np\n\ndef tan(x, /, *, out=None):\n    return np.tan(x)\n")
    project = Projects(tolerant=True, use_cache=False)
    project.scan([tmp_path])
    return project, Buffers(project), path


def test_a_replaced_text_is_neither_summarized_nor_checked(tmp_path: Path) -> None:
    project, buffers, path = workspace(tmp_path)
    before = project.summaries[os.path.abspath(path)]
    outcome = buffers.check(path, GOOD.replace("tan", "sin"), lambda: False)
    assert outcome.found is None and not outcome.others_changed
    assert project.summaries[os.path.abspath(path)] is before


def test_the_same_text_is_summarized_once(tmp_path: Path) -> None:
    project, buffers, path = workspace(tmp_path)
    text = GOOD.replace("tan", "sin")
    assert buffers.check(path, text, lambda: True).others_changed  # sin for tan: news
    summary = project.summaries[os.path.abspath(path)]
    again = buffers.check(path, text, lambda: True)
    assert not again.others_changed
    assert project.summaries[os.path.abspath(path)] is summary


def test_a_buffer_that_does_not_parse_keeps_its_last_summary(tmp_path: Path) -> None:
    project, buffers, path = workspace(tmp_path)
    buffers.check(path, GOOD, lambda: True)
    summary = project.summaries[os.path.abspath(path)]
    outcome = buffers.check(path, BROKEN, lambda: True)
    assert outcome.found is not None and [d.code for d in outcome.found] == ["IVY000"]
    assert not outcome.others_changed
    assert project.summaries[os.path.abspath(path)] is summary
    assert "tan" in project.index_for(path).functional


def test_the_same_text_against_the_same_index_is_answered_again(tmp_path: Path) -> None:
    _, buffers, path = workspace(tmp_path)
    first = buffers.check(path, GOOD, lambda: True).found
    assert buffers.check(path, GOOD, lambda: True).found is first
    backend = tmp_path / "ivy/functional/backends/numpy/elementwise.py"
    backend.write_text(backend.read_text() + "\n\ndef sin(x):\n    return x\n")
    buffers.update_from_disk(backend)  # another file changed: checked again
    again = buffers.check(path, GOOD, lambda: True).found
    assert again is not first and again == first


def test_closing_reads_the_file_from_disk_again(tmp_path: Path) -> None:
    project, buffers, path = workspace(tmp_path)
    buffers.check(path, GOOD.replace("tan", "sin"), lambda: True)
    assert buffers.close(path, from_disk=True)  # sin goes, tan is back: news
    assert "tan" in project.index_for(path).functional
