"""``ivycheck --watch`` as a user runs it: the report, then a new report after each change
to a file, until Ctrl-C ends it with exit status 130 and no traceback. Every wait reads
the process's output until the line that says it is ready: never a fixed sleep."""

from __future__ import annotations

import queue
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.checker.test_cli import BAD_ORDER, CLEAN
from tests.checker.test_cli_progress import without_terminal_settings
from tests.helpers import IVYCHECK, write_tree

WATCHING = "ivycheck: watching for file changes (Ctrl-C to stop)"
REPORT_A = (
    "ivy/functional/ivy/a.py:2:1: IVY005 [*] @handle_out_argument must be above "
    "@to_native_arrays_and_back (Ivy's decorator order)"
)
TIMEOUT = 120.0


class Watched:
    """A running ``ivycheck --watch``, its two streams read line by line into one queue."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.lines: queue.Queue[tuple[str, str | None]] = queue.Queue()
        assert process.stdout is not None and process.stderr is not None
        for name, stream in (("out", process.stdout), ("err", process.stderr)):
            threading.Thread(target=self._pump, args=(name, stream), daemon=True).start()

    def _pump(self, name: str, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))
        self.lines.put((name, None))

    def until(self, last: str) -> list[tuple[str, str]]:
        """Every line up to and including the standard-error line ``last``."""
        seen: list[tuple[str, str]] = []
        while True:
            name, line = self.lines.get(timeout=TIMEOUT)
            assert line is not None, f"ivycheck ended early; it said {seen}"
            seen.append((name, line))
            if name == "err" and line == last:
                return seen

    def rest(self) -> list[tuple[str, str]]:
        """Every line still to come, once the process has ended (both streams closed)."""
        seen: list[tuple[str, str]] = []
        closed = 0
        while closed < 2:
            name, line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                closed += 1
            else:
                seen.append((name, line))
        return seen


@pytest.fixture
def watched(project: Path) -> Iterator[Watched]:
    write_tree(project, {"ivy/functional/ivy/a.py": BAD_ORDER, "ivy/functional/ivy/b.py": ""})
    process = subprocess.Popen(
        [str(IVYCHECK), "--watch", "."],
        cwd=project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
        env=without_terminal_settings(),
    )
    try:
        yield Watched(process)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=TIMEOUT)


def test_watch_reports_again_after_each_change_and_ctrl_c_exits_130(
    watched: Watched, project: Path
) -> None:
    first = watched.until(WATCHING)
    assert [line for name, line in first if name == "out"] == [REPORT_A]
    assert ("err", "Found 1 problem (1 fixable with --fix) in 2 files.") in first

    (project / "ivy/functional/ivy/a.py").write_text(CLEAN)
    second = watched.until(WATCHING)
    assert second == [
        ("err", "ivycheck: 1 file changed, checking again"),
        ("err", "All checks passed (2 files)."),
        ("err", WATCHING),
    ]

    (project / "ivy/functional/ivy/c.py").write_text(BAD_ORDER)
    third = watched.until(WATCHING)
    assert [line for name, line in third if name == "out"] == [REPORT_A.replace("a.py", "c.py")]
    assert ("err", "Found 1 problem (1 fixable with --fix) in 3 files.") in third

    watched.process.send_signal(signal.SIGINT)
    assert watched.process.wait(timeout=TIMEOUT) == 130
    assert watched.rest() == [("err", "ivycheck: interrupted")]


def test_a_configuration_error_under_watch_waits_for_the_fix(
    watched: Watched, project: Path
) -> None:
    watched.until(WATCHING)
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nselct = ['IVY005']\n")
    broken = watched.until(WATCHING)
    assert any(
        "unknown key 'selct'" in line and "did you mean 'select'" in line for _, line in broken
    )
    (project / "pyproject.toml").write_text("[tool.ivycheck]\nignore = ['IVY005']\n")
    mended = watched.until(WATCHING)
    assert ("err", "All checks passed (2 files).") in mended
