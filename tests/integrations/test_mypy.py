"""The real ``mypy`` with ``plugins = ivycheck.mypy`` on the fixtures in ``fixtures/mypy``.

One error per problem: a line marked ``# E`` carries exactly one error, ``ivy-native-out``
(not also mypy's own ``arg-type`` for the runtime's ``out: Array | None``); a line marked
``# A`` (an ``out`` that is wrong but no native array) exactly one ``arg-type``; every other
line none.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "mypy"
MYPY = Path(sys.executable).with_name("mypy")
ERROR = re.compile(
    r"^(?P<file>[\w.]+):(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>[\w-]+)\]$"
)


def run_mypy(config: str, files: list[str], cache: Path) -> tuple[int, list[re.Match[str]]]:
    done = subprocess.run(
        [str(MYPY), "--config-file", config, "--cache-dir", str(cache), *files],
        cwd=FIXTURES,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr + done.stdout
    errors = [m for line in done.stdout.splitlines() if (m := ERROR.match(line))]
    return done.returncode, errors


MARKS = {"# E ": "ivy-native-out", "# A ": "arg-type"}


def expected(name: str) -> list[tuple[int, str]]:
    """``(line, code)`` for each marked line of the fixture ``name``."""
    lines = (FIXTURES / name).read_text().splitlines()
    return [
        (number, code)
        for number, text in enumerate(lines, start=1)
        for mark, code in MARKS.items()
        if mark in text
    ]


def _check(errors: list[re.Match[str]], name: str) -> None:
    found = [m for m in errors if m["file"] == name]
    assert [(int(m["line"]), m["code"]) for m in found] == expected(name), [m[0] for m in found]
    for m in found:
        if m["code"] == "ivy-native-out":
            assert "as `out`, which raises; pass an `ivy.Array`" in m["message"]


def test_native_out_through_variables_returns_and_containers(tmp_path: Path) -> None:
    code, errors = run_mypy("mypy.ini", ["native_out.py", "wrong_out.py", "correct.py"], tmp_path)
    assert code == 1
    _check(errors, "native_out.py")
    _check(errors, "wrong_out.py")
    assert [m[0] for m in errors if m["file"] == "correct.py"] == []
    assert "(numpy.ndarray)" in next(m["message"] for m in errors if m["code"] == "ivy-native-out")


@pytest.mark.slow
def test_native_array_is_the_union_of_the_configured_backends(tmp_path: Path) -> None:
    """Analysing torch takes mypy about 20 s, hence ``slow``."""
    code, errors = run_mypy("mypy-torch.ini", ["native_torch.py", "correct.py"], tmp_path)
    assert code == 1
    _check(errors, "native_torch.py")
    assert [m[0] for m in errors if m["file"] == "correct.py"] == []
    assert any("torch.Tensor" in m["message"] for m in errors)


def test_an_unknown_backend_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(MYPY), "--config-file", "mypy.ini", "--cache-dir", str(tmp_path), "correct.py"],
        cwd=FIXTURES,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "IVYCHECK_MYPY_BACKENDS": "numpy,torh"},
    )
    assert done.returncode == 2
    assert "INTERNAL ERROR" not in done.stdout + done.stderr
    assert (
        "ivycheck mypy plugin: error: IVYCHECK_MYPY_BACKENDS: unknown backend 'torh'; "
        "did you mean 'torch'?"
    ) in done.stderr
