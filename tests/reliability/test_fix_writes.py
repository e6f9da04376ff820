"""``--fix`` replaces a file whole, keeps what it can of it, and writes nowhere it should not.

The new text goes into a new file renamed over the old one (never torn: see
``test_fix_kill.py``), with the old one's owner, group and mode; a file with other hard
links is refused rather than split; a link planted in a repository cannot make it write
outside the project; an editor that saves the file meanwhile keeps its text.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ivycheck.checker.base import sourcefile
from ivycheck.checker.base.sourcefile import SourceError, read_source, write_source
from tests.helpers import IVYCHECK, run_ivycheck, write_tree
from tests.reliability.test_filesystem import _without_root_powers

API = "ivy/functional/ivy/elementwise.py"
BAD_ORDER = (
    "@to_native_arrays_and_back\n"
    "@handle_out_argument\n"
    "def tan(x, /, *, out=None):\n"
    "    return current_backend(x).tan(x, out=out)\n"
)
FIXED_ORDER = BAD_ORDER.replace(
    "@to_native_arrays_and_back\n@handle_out_argument\n",
    "@handle_out_argument\n@to_native_arrays_and_back\n",
)


def _project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", {"pyproject.toml": "[tool.ivycheck]\n", API: BAD_ORDER})


def test_fix_keeps_the_owner_and_mode_and_leaves_no_temporary(tmp_path: Path) -> None:
    root = _project(tmp_path)
    path = root / API
    path.chmod(0o640)
    if os.geteuid() == 0:
        os.chown(path, 12345, 54321)  # another user's file, as root fixes it
    before = os.stat(path)
    done = run_ivycheck("--fix", "--no-cache", API, cwd=root)
    assert done.returncode == 0, done.stderr
    after = os.stat(path)
    assert path.read_text() == FIXED_ORDER
    assert (after.st_uid, after.st_gid, after.st_mode) == (
        before.st_uid,
        before.st_gid,
        before.st_mode,
    )
    assert after.st_ino != before.st_ino  # a new file, renamed over the old one
    assert sorted(p.name for p in path.parent.iterdir()) == ["elementwise.py"]  # no temporary


def test_fix_refuses_a_file_with_other_hard_links(tmp_path: Path) -> None:
    """A rename would split the links (the other name keeping the old text), and writing
    in place can be torn by a kill: the file is not written, and the run says why."""
    root = _project(tmp_path)
    path = root / API
    other_name = root / "hard_link.py.txt"
    os.link(path, other_name)
    done = run_ivycheck("--fix", "--no-cache", API, cwd=root)
    assert done.returncode == 1
    assert "not fixed: it has 2 hard links" in done.stderr
    assert "IVY005" in done.stdout  # still reported
    assert path.read_text() == other_name.read_text() == BAD_ORDER
    assert os.stat(path).st_nlink == 2


def test_fix_leaves_a_file_the_user_may_not_write(tmp_path: Path) -> None:
    """A rename needs only the folder's permission: the file's own is asked first, so a
    read-only file stays as it is (and the run says why)."""
    prefix = _without_root_powers()
    if prefix is None:
        pytest.skip("running as root with no way to drop CAP_DAC_OVERRIDE (setpriv)")
    root = _project(tmp_path)
    path = root / API
    path.chmod(0o444)
    done = subprocess.run(
        [*prefix, str(IVYCHECK), "--fix", "--no-cache", "--jobs", "1", API],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 1
    assert "not fixed: cannot open for writing: Permission denied" in done.stderr
    assert path.read_text() == BAD_ORDER


def test_fix_refuses_a_link_to_a_file_outside_the_project(tmp_path: Path) -> None:
    root = _project(tmp_path)
    outside = tmp_path / "elsewhere" / "victim.py"
    outside.parent.mkdir()
    outside.write_text(BAD_ORDER)
    (root / API).unlink()
    (root / API).symlink_to(outside)
    done = run_ivycheck("--fix", "--no-cache", API, cwd=root)
    assert outside.read_text() == BAD_ORDER
    assert done.returncode == 1
    assert "outside the project" in done.stderr and str(outside) in done.stderr
    assert "IVY005" in done.stdout  # still reported, not silently skipped


def test_fix_follows_a_link_inside_the_project(tmp_path: Path) -> None:
    root = _project(tmp_path)
    real = root / "ivy/functional/ivy/real_elementwise.py"
    (root / API).rename(real)
    (root / API).symlink_to(real.name)
    done = run_ivycheck("--fix", "--no-cache", API, cwd=root)
    assert done.returncode == 0, done.stderr
    assert (root / API).is_symlink() and real.read_text() == FIXED_ORDER


def test_a_file_replaced_by_an_editor_during_the_write_keeps_the_editors_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editors save by renaming a new file over the old one: if that happens while the fix
    writes its new file, the fix is not renamed over the editor's text, and is reported
    lost."""
    path = tmp_path / "f.py"
    path.write_text(BAD_ORDER)
    source = read_source(path)
    saved = BAD_ORDER + "# saved by the editor\n"
    real_new_file = sourcefile._new_file

    def new_file_while_the_editor_saves(
        directory: int, name: str, data: bytes, old: os.stat_result
    ) -> str:
        made = real_new_file(directory, name, data, old)
        (tmp_path / "editor.tmp").write_text(saved)
        os.replace(tmp_path / "editor.tmp", path)
        return made

    monkeypatch.setattr(sourcefile, "_new_file", new_file_while_the_editor_saves)
    with pytest.raises(SourceError, match="replaced on disk"):
        write_source(path, source, FIXED_ORDER)
    assert path.read_text() == saved
    assert [p.name for p in tmp_path.iterdir()] == ["f.py"]  # the new file is gone
