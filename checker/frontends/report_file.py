"""``--output-file``: the report written to a file instead of standard output.

The file is written whole or not at all: the report goes to a temporary file beside it,
renamed over it once complete, so a CI step that uploads it (or a reader polling it under
``--watch``) never sees half a report, and a failed write (a full disk) leaves the last
report in place. The rename replaces the file, so it takes the mode a new file would get
(or the old file's mode, which is kept).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class ReportFileError(Exception):
    """The report could not be written; the message names the file and why."""


def write_report(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically, creating its folder if needed."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        mode = _mode_for(path)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as err:
        raise ReportFileError(f"{path}: cannot write the report: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as err:
        Path(temporary).unlink(missing_ok=True)
        raise ReportFileError(f"{path}: cannot write the report: {err.strerror or err}") from None


def _mode_for(path: Path) -> int:
    """The mode the report gets: the existing file's, else what the umask allows."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
