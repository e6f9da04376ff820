"""Where a shared language server and its clients meet: a Unix socket in a private folder.

A window reload ends the editor's extension host, and with it a server the editor runs
over stdio: the new window then waits for a new process to import its modules and read
the index again (2-3 s of a reload on a busy machine). A *shared* server
(``ivycheck lsp --shared``, :mod:`ivycheck.lsp.shared`) outlives its client instead: it
listens on a Unix socket, and the next window connects to it.

Invariant: a client reaches only a server of the same user, and a server serves only
through a folder nobody else controls. The socket lives in a per-user folder
(``$XDG_RUNTIME_DIR/ivycheck``, else ``ivycheck/lsp`` in the user's cache folder) made
with mode 0700; a folder that is a link, another user's, or writable by others is
refused (:class:`UnsafeFolder`), as the result cache's key folder is, because whoever
controls the folder could put their own socket in the server's place. The socket is
made 0600.

Invariant: one server per socket. The socket's lock file (``<socket>.lock``, held with
``flock`` for the server's life, released by the kernel however the process ends) says
whether a server owns the name: a socket file without a locked lock is what a dead
server left behind, and the next server removes it. The lock file itself is never
removed (a server removing it while another opened it would let a third take a fresh
lock beside the second's).

The socket's name is chosen by the client from what makes two servers interchangeable
(the VS Code extension: interpreter, server arguments and environment, workspace
folders); :func:`default_socket` is the same for a command line.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import stat
import sys
import time
from pathlib import Path

from ivycheck import __version__
from ivycheck.checker.run.cache_key import key_folder

MAX_SOCKET_PATH = 107
"""The longest socket path Linux accepts (``sun_path`` holds 108 bytes with its NUL)."""
GREETING = "ivycheck-lsp"
"""The first word of the line a shared server writes to each connection (see
:func:`greeting`)."""


class UnsafeFolder(Exception):
    """The rendezvous folder cannot be trusted (or made); the message says why."""


def default_folder() -> Path:
    """``$XDG_RUNTIME_DIR/ivycheck`` (a per-user tmpfs, emptied at logout), else the
    ``lsp`` folder of ivycheck's folder in the user's cache."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime) and os.path.isdir(runtime):
        return Path(runtime) / "ivycheck"
    return key_folder() / "lsp"


def default_socket(*key: str) -> Path:
    """A socket in :func:`default_folder` named by a digest of ``key`` with this
    ivycheck's version and interpreter (two servers of different code never share)."""
    parts = [__version__, os.path.realpath(sys.executable), *key]
    digest = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]
    return default_folder() / f"{digest}.sock"


def private_folder(folder: Path) -> None:
    """Make ``folder`` (mode 0700) if missing; raise :class:`UnsafeFolder` unless it is
    a real folder of this user that nobody else may write."""
    try:
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        found = os.lstat(folder)
    except OSError as err:
        raise UnsafeFolder(f"cannot make {folder}: {err.strerror or err}") from None
    if not stat.S_ISDIR(found.st_mode):
        raise UnsafeFolder(f"{folder} is not a folder (a link or a file): not used")
    if found.st_uid != os.geteuid():
        raise UnsafeFolder(f"{folder} belongs to another user (uid {found.st_uid}): not used")
    if found.st_mode & 0o022:
        raise UnsafeFolder(
            f"{folder} may be written by others (mode {stat.S_IMODE(found.st_mode):o}; "
            "ivycheck makes it 700): not used"
        )


def check_socket_path(path: Path) -> None:
    """A socket path the kernel accepts, in a private folder (else :class:`UnsafeFolder`)."""
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise UnsafeFolder(f"{path} is too long for a Unix socket (at most 107 bytes)")
    private_folder(path.parent)


def claim(path: Path, wait: float) -> int | None:
    """The lock of the socket ``path`` (a descriptor, held until the process ends), taken
    within ``wait`` seconds; ``None`` if another server holds it all that time. Once
    taken, a socket file left at ``path`` is a dead server's, and is removed."""
    lock = Path(f"{path}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)  # a server that was told to stop is leaving (a restart)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    return fd


def greeting(state: str, pid: int) -> bytes:
    """The line a shared server writes as it accepts a connection, before any LSP
    message: ``ivycheck-lsp <version> ready pid=<pid>`` (the connection is the client's),
    ``... busy ...`` (another client holds the server; the connection is closed) or
    ``... stale ...`` (the ivycheck code on disk is no longer the code the server runs:
    the connection is closed and the server exits; a client starts a new one once it is
    gone). A client takes any word but ``ready`` it does not know as ``busy``. It learns
    from the line, without a timeout, whether to go on, and the process to stop for a
    real restart."""
    return f"{GREETING} {__version__} {state} pid={pid}\n".encode()


__all__ = [
    "GREETING",
    "MAX_SOCKET_PATH",
    "UnsafeFolder",
    "check_socket_path",
    "claim",
    "default_folder",
    "default_socket",
    "greeting",
    "private_folder",
]
