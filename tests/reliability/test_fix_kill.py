"""``--fix`` and ``--add-noqa`` never leave a torn file, whatever kills them when.

CI time-outs and the OOM killer send SIGKILL, which nothing can catch or defer. A fix
written in place (``pwrite`` then ``ftruncate``) killed between the two once left the
fixed text followed by the old tail, which then failed at import. Here ``strace`` kills
the real command at the N-th call of each write-side system call, for every N from the
moment it starts writing to the end of the run, on a fix that shrinks the file and one
that grows it: each time the file must be byte for byte the old text or the new one.

The sweep over every N runs the command about a hundred times: it is ``slow`` (``make
test-reliability``, which installs ``strace`` if it is missing); the default run kills at
a few calls that matter (the new text's write, the flush, the rename). Without ``strace``
both are skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import IVYCHECK

STRACE = shutil.which("strace")


def _why_strace_cannot_run() -> str | None:
    if STRACE is None:
        return "strace is not installed (`make test-reliability` installs it)"
    done = subprocess.run([STRACE, "-o", "/dev/null", "true"], capture_output=True, text=True)
    if done.returncode != 0:  # a container without ptrace, say
        return f"strace cannot trace here: {done.stderr.strip()}"
    return None


STRACE_PROBLEM = _why_strace_cannot_run()
needs_strace = pytest.mark.skipif(STRACE_PROBLEM is not None, reason=STRACE_PROBLEM or "")

WRITE_SIDE = (
    "openat",
    "write",
    "pwrite64",
    "ftruncate",
    "fallocate",
    "fsync",
    "fdatasync",
    "fchmod",
    "fchown",
    "flock",
    "rename",
    "renameat",
    "renameat2",
    "linkat",
    "unlinkat",
    "close",
)
"""Every call with which a writer creates, fills, flushes, moves or gives up a file."""

API = "ivy/functional/ivy/elementwise.py"
BODY = textwrap.dedent(
    """\
    @to_native_arrays_and_back
    @handle_out_argument
    def tan(x, /, *, out=None):
        return current_backend(x).tan(x, out=out)
    """
)
FILLER = "".join(f"\n\ndef helper_{n}(x):\n    return x + {n}\n" for n in range(40))


@dataclass(frozen=True)
class Fix:
    """A command that rewrites the file, what it holds before, and after."""

    arguments: tuple[str, ...]
    old: str
    new: str


FIXES = {
    # IVY100's fix removes a directive that suppresses nothing: the file shrinks
    # (and IVY005's reorders the decorators).
    "shrinking": Fix(
        ("--fix", "--extend-select", "IVY100"),
        "def cos(x):  # noqa: IVY005\n    return x\n" + BODY + FILLER,
        "def cos(x):\n    return x\n"
        + BODY.replace(
            "@to_native_arrays_and_back\n@handle_out_argument\n",
            "@handle_out_argument\n@to_native_arrays_and_back\n",
        )
        + FILLER,
    ),
    # --add-noqa adds a directive: the file grows.
    "growing": Fix(
        ("--add-noqa",),
        BODY + FILLER,
        BODY.replace("@handle_out_argument\n", "@handle_out_argument  # noqa: IVY005\n") + FILLER,
    ),
}


def _project(tmp_path: Path, fix: Fix) -> Path:
    root = tmp_path / "project"
    (root / API).parent.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    (root / API).write_text(fix.old)
    return root


def _command(fix: Fix) -> list[str]:
    return [str(IVYCHECK), *fix.arguments, "--no-cache", "--jobs", "1", API]


def _strace(root: Path, fix: Fix, *options: str) -> subprocess.CompletedProcess[str]:
    assert STRACE is not None
    return subprocess.run(
        [STRACE, "-qq", *options, "--", *_command(fix)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _windows(tmp_path: Path, fix: Fix) -> dict[str, range]:
    """For each write-side call, the invocation numbers from the first one that touches
    the file's folder (by name, or through a descriptor opened on it) to one past the
    last of the run: the run traced once, without injecting anything."""
    root = _project(tmp_path / "trace", fix)
    log = root.parent / "trace.log"
    done = _strace(root, fix, "-o", str(log), "-e", "trace=" + ",".join(WRITE_SIDE))
    assert (root / API).read_text() == fix.new, done.stderr
    folder = str((root / API).parent)
    seen = dict.fromkeys(WRITE_SIDE, 0)
    first: dict[str, int] = {}
    started = False
    for line in log.read_text().splitlines():
        call = re.match(r"(\w+)\(", line)
        if call is None or call[1] not in seen:
            continue
        seen[call[1]] += 1
        started = started or f'"{folder}"' in line or f'"{folder}/' in line or API in line
        if started:
            first.setdefault(call[1], seen[call[1]])
    assert started, "the run never touched the file"
    return {name: range(first[name], seen[name] + 2) for name in first}


def _kill_at(tmp_path: Path, fix: Fix, call: str, n: int) -> tuple[bool, str]:
    """Whether the run was killed, and what the file holds after it."""
    root = _project(tmp_path / f"{call}-{n}", fix)
    done = _strace(root, fix, "-o", "/dev/null", "-e", f"inject={call}:signal=KILL:when={n}")
    text = (root / API).read_bytes().decode()
    shutil.rmtree(root.parent)
    return done.returncode == -9, text


def _assert_whole(tmp_path: Path, fix: Fix, plan: dict[str, range]) -> None:
    outcomes = set()
    for call, numbers in plan.items():
        for n in numbers:
            killed, text = _kill_at(tmp_path, fix, call, n)
            assert text in (fix.old, fix.new), f"torn by a kill at {call} #{n}:\n{text}"
            outcomes.add((killed, text == fix.new))
    # Not vacuous: some kills left the old text, some the new one.
    assert {(True, False), (True, True)} <= outcomes, outcomes


@needs_strace
@pytest.mark.parametrize("kind", sorted(FIXES))
def test_a_kill_at_the_calls_that_matter_leaves_a_whole_file(tmp_path: Path, kind: str) -> None:
    fix = FIXES[kind]
    windows = _windows(tmp_path, fix)
    plan = {
        call: range(windows[call].start, min(windows[call].stop, windows[call].start + 2))
        for call in ("write", "fsync", "pwrite64", "ftruncate", "rename", "renameat", "renameat2")
        if call in windows
    }
    _assert_whole(tmp_path, fix, plan)


@pytest.mark.slow
@needs_strace
@pytest.mark.parametrize("kind", sorted(FIXES))
def test_a_kill_at_any_write_side_call_leaves_a_whole_file(tmp_path: Path, kind: str) -> None:
    fix = FIXES[kind]
    _assert_whole(tmp_path, fix, _windows(tmp_path, fix))
