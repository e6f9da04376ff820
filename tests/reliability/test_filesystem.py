"""Files as they are found on disk: odd encodings and line endings, unreadable entries, and
files that change while ``ivycheck --fix`` runs. Nothing is lost, each problem is said once,
the run goes on, and the exit status says so.
"""

from __future__ import annotations

import codecs
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ivycheck.checker.base.sourcefile import SourceError, read_source, write_source
from ivycheck.checker.run import runner
from ivycheck.checker.run.runner import RunOptions, run
from tests.helpers import IVYCHECK, run_ivycheck

API = "ivy/functional/ivy/elementwise.py"
BAD_ORDER = (
    "# caf\u00e9: a non-ASCII comment\n"
    "@to_native_arrays_and_back\n"
    "@handle_out_argument\n"
    "def tan(x, /, *, out=None):\n"
    "    return current_backend(x).tan(x, out=out)\n"
)
FIXED_ORDER = BAD_ORDER.replace(
    "@to_native_arrays_and_back\n@handle_out_argument\n",
    "@handle_out_argument\n@to_native_arrays_and_back\n",
)


def _project(root: Path) -> Path:
    (root / "pyproject.toml").write_text("[tool.ivycheck]\n")
    (root / API).parent.mkdir(parents=True)
    return root


# --- encodings, BOM, line endings ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "encode"),
    [
        ("utf-8", lambda text: text.encode()),
        ("bom", lambda text: codecs.BOM_UTF8 + text.encode()),
        ("latin-1", lambda text: ("# -*- coding: latin-1 -*-\n" + text).encode("latin-1")),
        (
            "cp1252-crlf",
            lambda text: ("# coding: cp1252\n" + text).replace("\n", "\r\n").encode("cp1252"),
        ),
        ("crlf", lambda text: text.replace("\n", "\r\n").encode()),
        ("cr", lambda text: text.replace("\n", "\r").encode()),
        ("bom-crlf", lambda text: codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode()),
    ],
)
def test_fix_keeps_encoding_bom_and_line_endings(project: Path, name: str, encode) -> None:  # type: ignore[no-untyped-def]
    path = _project(project) / API
    path.write_bytes(encode(BAD_ORDER))
    done = run_ivycheck("--fix", "--no-cache", API, cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert path.read_bytes() == encode(FIXED_ORDER)


@pytest.mark.parametrize("failing", ["write", "fchmod", "fsync", "replace"])
def test_a_failed_write_leaves_the_original(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    """A full disk (or an I/O error) at any step of the write: the file holds its original
    bytes afterwards, and nothing else is left in the folder."""
    path = tmp_path / "f.py"
    path.write_text(BAD_ORDER)
    source = read_source(path)
    real = getattr(os, failing)
    calls: list[object] = []

    def fail_once(*args: object, **kwargs: object) -> object:
        calls.append(args)
        if len(calls) == 1:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(os, failing, fail_once)
    longer = FIXED_ORDER + "# longer than before, so the file must grow\n"
    with pytest.raises(OSError, match="No space"):
        write_source(path, source, longer)
    assert calls
    assert path.read_text() == BAD_ORDER
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]


def test_file_changed_during_the_run_is_not_overwritten(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer (an editor saving) changes the file after ivycheck read it and before
    it writes the fix: the fix is dropped with a message, the other writer's text stays."""
    path = _project(project) / API
    path.write_text(BAD_ORDER)
    other = BAD_ORDER + "\n# saved by the editor meanwhile\n"
    real_fix = runner.fix_source

    def fix_while_someone_saves(source: str, **kwargs):  # type: ignore[no-untyped-def]
        path.write_text(other)  # the worker has read the file; now it changes on disk
        return real_fix(source, **kwargs)

    monkeypatch.setattr(runner, "fix_source", fix_while_someone_saves)
    result = run(RunOptions(paths=[path], fix=True, jobs=1, use_cache=False))
    assert path.read_text() == other
    assert result.fixed == 0
    assert [p for p in result.problems if "changed on disk" in p and "not fixed" in p]
    assert [d.code for d in result.diagnostics] == ["IVY005"]  # still reported


def test_write_refuses_when_the_file_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_text(BAD_ORDER)
    source = read_source(path)
    path.unlink()
    with pytest.raises(SourceError, match="cannot open for writing"):
        write_source(path, source, FIXED_ORDER)
    assert not list(tmp_path.iterdir())


# --- unreadable entries --------------------------------------------------------------------

DROP_ROOT_POWERS = [
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
]


def _without_root_powers() -> list[str] | None:
    """A command prefix under which permissions apply (None: cannot make one here)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        return None
    with tempfile.TemporaryDirectory() as directory:
        probe = Path(directory, "probe")
        probe.write_text("x")
        probe.chmod(0)
        done = subprocess.run([*DROP_ROOT_POWERS, "cat", str(probe)], capture_output=True)
    return DROP_ROOT_POWERS if done.returncode != 0 else None


@pytest.fixture
def messy(project: Path) -> Iterator[Path]:
    """A tree with one good finding and one of every kind of bad entry."""
    _project(project)
    (project / API).write_text(BAD_ORDER)
    bad = project / "bad"
    bad.mkdir()
    (bad / "broken_link.py").symlink_to(bad / "nowhere.py")
    (bad / "loop.py").symlink_to(bad / "loop.py")
    os.mkfifo(bad / "fifo.py")
    (bad / "latin1_no_cookie.py").write_bytes(b"x = '\xe9t\xe9'\n")
    (bad / "bad_cookie.py").write_bytes(b"# coding: no-such-codec\nx = 1\n")
    (bad / "utf16.py").write_bytes("x = 1\n".encode("utf-16"))
    (bad / "unreadable.py").write_text("x = 1\n")
    (bad / "closed").mkdir()
    (bad / "closed" / "hidden.py").write_text("x = 1\n")
    (bad / "unreadable.py").chmod(0)
    (bad / "closed").chmod(0)
    yield project
    (bad / "closed").chmod(0o755)


EXPECTED = {
    "broken_link.py": "broken symbolic link",
    "loop.py": "Too many levels of symbolic links",
    "fifo.py": "not a ",
    "latin1_no_cookie.py": "encoding",
    "bad_cookie.py": "unknown encoding",
    "utf16.py": "",
}


def _run(prefix: list[str], root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, str(IVYCHECK), "--no-cache", "--jobs", "1", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_every_bad_entry_is_one_clear_message_and_the_run_goes_on(messy: Path) -> None:
    prefix = _without_root_powers()
    if prefix is None:
        pytest.skip("running as root with no way to drop CAP_DAC_OVERRIDE (setpriv)")
    done = _run(prefix, messy, ".")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output
    assert f"{API}:3:1: IVY005" in done.stdout  # the good file is still checked
    for name, message in {
        **EXPECTED,
        "unreadable.py": "Permission denied",
        "closed": "cannot read directory: Permission denied",
    }.items():
        lines = [line for line in output.splitlines() if f"bad/{name}" in line]
        assert len(lines) == 1, (name, output)
        assert message in lines[0], (name, lines)


def test_named_bad_files_are_one_message_each(messy: Path) -> None:
    prefix = _without_root_powers()
    if prefix is None:
        pytest.skip("running as root with no way to drop CAP_DAC_OVERRIDE (setpriv)")
    names = [*EXPECTED, "unreadable.py", "missing.py"]
    done = _run(prefix, messy, API, *(f"bad/{n}" for n in names))
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output
    assert f"{API}:3:1: IVY005" in done.stdout
    for name in names:
        assert len([line for line in output.splitlines() if f"bad/{name}" in line]) == 1, (
            name,
            output,
        )


def test_bad_standard_input_is_a_clear_error(project: Path) -> None:
    done = subprocess.run(
        [str(IVYCHECK), "-"],
        cwd=project,
        input=b"# coding: no-such-codec\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"standard input" in done.stderr and b"Traceback" not in done.stderr


if sys.platform != "linux":  # FIFOs, setpriv
    pytestmark = pytest.mark.skip(reason="Linux file-system semantics")
