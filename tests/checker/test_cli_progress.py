"""The progress line on a real pseudo-terminal: drawn on standard error for a long run
when it is a terminal, never in CI, with ``--quiet`` or into a pipe, and wiped so that
the screen ends with the summary alone."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from pathlib import Path

import pytest

from tests.helpers import IVYCHECK, run_ivycheck, write_tree

FILES = 1000
"""Enough files that a cold run with one process takes well over a second (the counter
shows only after one): about 3 s of CPU here."""

FUNCTIONS = "".join(
    f"""
@handle_out_argument
@to_native_arrays_and_back
def f{n}(x, /, *, out=None):
    return current_backend(x).f{n}(x, out=out)
"""
    for n in range(20)
)

COUNTER = re.compile(r"\rivycheck: (indexing|checking) (\d+)/(\d+) files")


@pytest.fixture(scope="module")
def big_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    write_tree(root, {f"ivy/functional/ivy/m{i}.py": FUNCTIONS for i in range(FILES)})
    return root


def without_terminal_settings(**changes: str) -> dict[str, str]:
    """This environment as a user's terminal has it: not in CI (the CI run sets ``CI``),
    no colour; then ``changes``."""
    environment = {k: v for k, v in os.environ.items() if k not in ("CI", "FORCE_COLOR")}
    return {**environment, "NO_COLOR": "1", **changes}


def run_on_terminal(*args: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """``ivycheck`` with standard error on a pseudo-terminal (standard output a pipe):
    the exit status, standard output, and every byte written to the terminal."""
    leader, follower = os.openpty()
    process = subprocess.Popen(
        [str(IVYCHECK), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    screen: list[bytes] = []

    def read_terminal() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                return
            if not chunk:
                return
            screen.append(chunk)

    reader = threading.Thread(target=read_terminal)
    reader.start()
    stdout, _ = process.communicate(timeout=300)
    reader.join(timeout=60)
    os.close(leader)
    return process.returncode, stdout.decode(), b"".join(screen).decode()


def rendered(terminal: str) -> list[str]:
    """The lines a terminal shows for ``terminal``: a carriage return goes back to the
    start of the line, and what follows overwrites it."""
    lines = []
    for raw in terminal.replace("\r\n", "\n").split("\n"):
        line: list[str] = []
        column = 0
        for character in raw:
            if character == "\r":
                column = 0
                continue
            if column < len(line):
                line[column] = character
            else:
                line.append(character)
            column += 1
        lines.append("".join(line).rstrip())
    return [line for line in lines if line]


def test_a_long_run_on_a_terminal_draws_a_counter_then_only_the_summary(
    big_tree: Path,
) -> None:
    code, stdout, terminal = run_on_terminal(
        "--no-cache", "--jobs", "1", ".", cwd=big_tree, env=without_terminal_settings()
    )
    assert code == 0, terminal
    assert stdout == ""
    counts = [(phase, int(done), int(total)) for phase, done, total in COUNTER.findall(terminal)]
    assert counts, terminal
    checking = [(done, total) for phase, done, total in counts if phase == "checking"]
    assert checking, counts
    assert all(total == FILES for _, total in checking)
    assert [done for done, _ in checking] == sorted(done for done, _ in checking)
    assert rendered(terminal) == [f"All checks passed ({FILES} files)."]


@pytest.mark.parametrize(
    ("option", "environment"),
    [("--quiet", {}), ("--exit-zero", {"CI": "true"})],
    ids=["quiet", "in-ci"],
)
def test_no_counter_with_quiet_or_in_ci(
    big_tree: Path, option: str, environment: dict[str, str]
) -> None:
    code, _, terminal = run_on_terminal(
        "--no-cache",
        "--jobs",
        "1",
        option,
        ".",
        cwd=big_tree,
        env=without_terminal_settings(**environment),
    )
    assert code == 0
    assert "\r" not in terminal.replace("\r\n", "\n")
    assert "files" not in terminal or "All checks passed" in terminal
    assert not COUNTER.search(terminal)


def test_no_counter_into_a_pipe(big_tree: Path) -> None:
    done = run_ivycheck("--no-cache", "--jobs", "1", ".", cwd=big_tree)
    assert done.returncode == 0
    assert done.stderr == f"All checks passed ({FILES} files).\n"
