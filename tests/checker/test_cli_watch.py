"""``ivycheck --watch`` as a user runs it: the report, then a new report after each change
to a file, until Ctrl-C ends it with exit status 130 and no traceback. Every wait reads
the process's output until the line that says it is ready: never a fixed sleep."""

from __future__ import annotations

import os
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
    """A running ``ivycheck --watch``, each of its two streams read line by line."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.out: queue.Queue[str | None] = queue.Queue()
        self.err: queue.Queue[str | None] = queue.Queue()
        assert process.stdout is not None and process.stderr is not None
        for lines, stream in ((self.out, process.stdout), (self.err, process.stderr)):
            threading.Thread(target=self._pump, args=(lines, stream), daemon=True).start()

    @staticmethod
    def _pump(lines: queue.Queue[str | None], stream: IO[str]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def err_until(self, last: str) -> list[str]:
        """The standard-error lines up to and including ``last``."""
        seen: list[str] = []
        while True:
            line = self.err.get(timeout=TIMEOUT)
            assert line is not None, f"ivycheck ended early; it said {seen}"
            seen.append(line)
            if line == last:
                return seen

    def next_out(self) -> str:
        """The next line of the report. Invariant of the command: a report is written out
        before the line saying it waits, so it is there once that line is read."""
        line = self.out.get(timeout=TIMEOUT)
        assert line is not None, "ivycheck ended early"
        return line

    def rest(self) -> tuple[list[str], list[str]]:
        """Every line still to come on each stream, once the process has ended."""
        return _drain(self.out), _drain(self.err)


def _drain(lines: queue.Queue[str | None]) -> list[str]:
    seen: list[str] = []
    while (line := lines.get(timeout=TIMEOUT)) is not None:
        seen.append(line)
    return seen


def save(path: Path, text: str) -> None:
    """Save as many editors do: a new file renamed over the old one. (A file truncated and
    then written can be caught in between by any watcher; under load the gap is long.)"""
    temporary = path.with_name(f".{path.name}.saving")
    temporary.write_text(text)
    os.replace(temporary, path)


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
    first = watched.err_until(WATCHING)
    assert first == ["Found 1 problem (1 fixable with --fix) in 2 files.", WATCHING]
    assert watched.next_out() == REPORT_A

    save(project / "ivy/functional/ivy/a.py", CLEAN)
    assert watched.err_until(WATCHING) == [
        "ivycheck: 1 file changed, checking again",
        "All checks passed (2 files).",
        WATCHING,
    ]

    save(project / "ivy/functional/ivy/c.py", BAD_ORDER)
    assert watched.err_until(WATCHING) == [
        "ivycheck: 1 file changed, checking again",
        "Found 1 problem (1 fixable with --fix) in 3 files.",
        WATCHING,
    ]
    assert watched.next_out() == REPORT_A.replace("a.py", "c.py")

    watched.process.send_signal(signal.SIGINT)
    assert watched.process.wait(timeout=TIMEOUT) == 130
    # Nothing else was reported (the clean run printed no finding), and no traceback.
    assert watched.rest() == ([], ["ivycheck: interrupted"])


def test_a_configuration_error_under_watch_waits_for_the_fix(
    watched: Watched, project: Path
) -> None:
    watched.err_until(WATCHING)
    save(project / "pyproject.toml", "[tool.ivycheck]\nselct = ['IVY005']\n")
    broken = watched.err_until(WATCHING)
    assert any("unknown key 'selct'" in line and "did you mean 'select'" in line for line in broken)
    save(project / "pyproject.toml", "[tool.ivycheck]\nignore = ['IVY005']\n")
    assert watched.err_until(WATCHING)[-2:] == ["All checks passed (2 files).", WATCHING]
