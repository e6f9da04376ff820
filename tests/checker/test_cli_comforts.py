"""The command-line comforts a ruff or flake8 user expects, on the real ``ivycheck``
process: a reason on every IVY000, ``--output-file``, "did you mean" for configuration
keys and backend names, and a summary that says what this run did."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import run_ivycheck, write_tree


def test_a_file_cpython_cannot_parse_for_memory_says_why(project: Path) -> None:
    """CPython raises a bare ``MemoryError`` (no message) for 100,000 unary minuses."""
    write_tree(project, {"deep.py": "x = " + "-" * 100_000 + "1\n"})
    done = run_ivycheck("deep.py", "--no-cache", cwd=project)
    assert done.returncode == 1
    assert done.stdout.strip() == (
        "deep.py:1:1: IVY000 cannot parse file: "
        "too deeply nested / out of memory while parsing (MemoryError)"
    )
