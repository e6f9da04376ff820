"""The code attrs and cattrs generate, compiled once per installation instead of per start.

``lsprotocol.types`` declares some 550 attrs classes; attrs writes each one's
``__init__``, ``__repr__``, ``__eq__``... as Python source and compiles it as the module
is imported, and cattrs does the same for each message type the server first reads or
writes (``initialize``'s parameters are a tree of a hundred classes). Those ``compile``
calls were 0.27 s of the server's 0.6 s of CPU before it can answer anything, a window
reload's squiggle waiting for all of it. The source they compile is the same on every
start of the same library versions, so the code objects are kept, as Python keeps a
module's bytecode in ``__pycache__``: in the user's cache folder beside the result cache's
key (:func:`~ivycheck.checker.run.cache_key.key_folder`), one file per Python version,
written (atomically) by a server that compiled something new, read by the next one; and,
as bytecode, not written when Python is told not to (``PYTHONDONTWRITEBYTECODE``).

Invariant: this is code, so it is read only from where nobody else could have written it,
as the cache key is: never through a link, never from a file or folder of another user or
that another user may write (else no cache: the code is compiled, as without one). No
repository, and no other user, can hand the server code this way.

A code object is looked up by everything ``compile`` reads: the source text, the file
name and the compiler flags (those the caller would have passed on: its ``__future__``
imports). A different library version generates a different text and misses; a file that
cannot be read or decoded is no cache. Only attrs' and cattrs' generators are given the
cached ``compile`` (as their module's global), nothing else.
"""

from __future__ import annotations
import __future__

import builtins
import contextlib
import marshal
import os
import secrets
import stat
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from ivycheck.checker.run.cache_key import key_folder

_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag

Key = tuple[str, str, int]


_NOFOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def default_path() -> Path:
    """Where this Python version's cache lives (see the module doc)."""
    version = f"{sys.implementation.cache_tag}-{MAGIC_NUMBER.hex()}"
    return key_folder() / f"generated-code-{version}.marshal"


def _private(found: os.stat_result) -> bool:
    """Ours, and writable by nobody else."""
    return found.st_uid == os.geteuid() and not found.st_mode & 0o022


def _private_folder(folder: Path) -> int | None:
    """The folder opened (a descriptor) if it is private (see the module doc)."""
    try:
        directory = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW)
    except OSError:
        return None
    if _private(os.fstat(directory)):
        return directory
    os.close(directory)
    return None


def _read_private(path: Path) -> bytes | None:
    """The file's bytes if it and its folder are private, else ``None``."""
    directory = _private_folder(path.parent)
    if directory is None:
        return None
    try:
        fd = os.open(path.name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=directory)
    except OSError:
        return None
    finally:
        os.close(directory)
    with os.fdopen(fd, "rb") as handle:
        found = os.fstat(fd)
        if not (stat.S_ISREG(found.st_mode) and _private(found)):
            return None
        return handle.read()


class GeneratedCode:
    """A ``compile`` for code generators that answers from the cache when it can."""

    def __init__(self, path: Path, known: dict[Key, CodeType]) -> None:
        self.path = path
        self.known = known
        self.used: dict[Key, CodeType] = {}
        self.compiled = 0
        """Code objects compiled by this process (not found in the cache)."""
        self._saved = 0

    @classmethod
    def load(cls, path: Path) -> GeneratedCode:
        try:
            data = _read_private(path)
            known = marshal.loads(data) if data is not None else {}
        except (OSError, EOFError, ValueError, TypeError):
            known = {}
        return cls(path, known if isinstance(known, dict) else {})

    def compile(
        self,
        source: Any,
        filename: Any,
        mode: str,
        flags: int = 0,
        dont_inherit: bool = False,
        optimize: int = -1,
        **more: Any,
    ) -> Any:
        """``compile`` as the generator called it (see the module doc)."""
        if more or optimize != -1 or mode != "exec" or not isinstance(source, str):
            return builtins.compile(source, filename, mode, flags, dont_inherit, optimize, **more)
        if not dont_inherit:  # the __future__ imports of the generator's own module
            flags |= sys._getframe(1).f_code.co_flags & _FUTURE_FLAGS
        key = (str(filename), source, flags)
        code = self.known.get(key)
        if code is None:
            code = builtins.compile(source, filename, mode, flags, True)
            self.compiled += 1
        self.used[key] = code
        return code

    def save(self) -> None:
        """Write the cache if this process compiled what it did not hold; a cache that
        cannot be written is left alone (the next start compiles again)."""
        if self.compiled == self._saved or sys.dont_write_bytecode:
            return
        self._saved = self.compiled
        entries = {**self.known, **dict(self.used)}
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return
        directory = _private_folder(self.path.parent)
        if directory is None:
            return
        temporary = f"{self.path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
            with os.fdopen(os.open(temporary, flags, 0o600, dir_fd=directory), "wb") as out:
                out.write(marshal.dumps(entries))
            os.replace(temporary, self.path.name, src_dir_fd=directory, dst_dir_fd=directory)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=directory)
            return
        finally:
            os.close(directory)
        self.known = entries


_installed: GeneratedCode | None = None


def install(path: Path | None = None) -> GeneratedCode:
    """Give attrs' and cattrs' code generators the cached ``compile``; idempotent."""
    global _installed
    if _installed is None:
        import attr._make
        import cattrs.gen
        import cattrs.gen.typeddicts

        _installed = GeneratedCode.load(path or default_path())
        generators: tuple[ModuleType, ...] = (attr._make, cattrs.gen, cattrs.gen.typeddicts)
        for module in generators:
            module.compile = _installed.compile  # type: ignore[attr-defined]
    return _installed


def save() -> None:
    """Write the cache of the installed ``compile``, if something new was compiled."""
    if _installed is not None:
        _installed.save()


__all__ = ["GeneratedCode", "default_path", "install", "save"]
