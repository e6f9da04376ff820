"""The code attrs generates, compiled once and read back by the next start
(``lsp/generated_code.py``): the same classes, none of the compiling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import attr._make
import attrs
import pytest

from ivycheck.lsp.generated_code import GeneratedCode, default_path

DEFINE = """\
import attrs

@attrs.define
class Position:
    line: int
    character: int = attrs.field(default=0)
"""


def _define_with(code: GeneratedCode) -> type:
    """The class ``DEFINE`` declares, attrs compiling through ``code``."""
    original = attr._make.__dict__.get("compile")
    attr._make.compile = code.compile  # type: ignore[attr-defined]
    try:
        namespace: dict[str, object] = {}
        exec(compile(DEFINE, "<generated-code-test>", "exec"), namespace)
        made = namespace["Position"]
        assert isinstance(made, type)
        return made
    finally:
        if original is None:
            del attr._make.compile  # type: ignore[attr-defined]
        else:
            attr._make.compile = original  # type: ignore[attr-defined]


@pytest.fixture
def writes_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a user's machine (this one may set PYTHONDONTWRITEBYTECODE)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


@pytest.mark.usefixtures("writes_caches")
def test_a_second_start_compiles_nothing_and_gets_the_same_classes(tmp_path: Path) -> None:
    path = tmp_path / "code.marshal"
    first = GeneratedCode.load(path)
    made = _define_with(first)
    assert first.compiled > 0
    first.save()
    second = GeneratedCode.load(path)
    again = _define_with(second)
    assert second.compiled == 0
    assert again(3) == again(3, 0) != again(3, 1)
    assert repr(again(2, character=5)) == repr(made(2, 5)) == "Position(line=2, character=5)"
    assert attrs.fields(again).character.default == 0


@pytest.mark.usefixtures("writes_caches")
def test_an_unreadable_cache_is_no_cache(tmp_path: Path) -> None:
    path = tmp_path / "code.marshal"
    path.write_bytes(b"\x00not marshal data")
    code = GeneratedCode.load(path)
    made = _define_with(code)
    assert made(1) == made(1, 0) and code.compiled > 0
    code.save()  # replaced by a good one
    assert GeneratedCode.load(path).known


@pytest.mark.usefixtures("writes_caches")
def test_code_is_read_only_from_where_nobody_else_could_write(tmp_path: Path) -> None:
    """Code is run from this file: never through a link, nor from a file or folder that
    another user may write (the cache key's rule)."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    path = folder / "code.marshal"
    first = GeneratedCode.load(path)
    _define_with(first)
    first.save()
    assert GeneratedCode.load(path).known  # private: read
    path.chmod(0o666)
    assert not GeneratedCode.load(path).known
    path.chmod(0o600)
    link = folder / "link.marshal"
    link.symlink_to(path)
    assert not GeneratedCode.load(link).known
    folder.chmod(0o777)
    try:
        assert not GeneratedCode.load(path).known
        again = GeneratedCode.load(path)
        _define_with(again)
        os.unlink(path)
        again.save()  # nor written there
        assert not path.exists()
    finally:
        folder.chmod(0o700)


def test_nothing_is_written_where_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    code = GeneratedCode.load(tmp_path / "code.marshal")
    _define_with(code)
    code.save()
    assert not (tmp_path / "code.marshal").exists()


def test_the_server_keeps_the_code_of_its_start_for_the_next(tmp_path: Path) -> None:
    """A real start (``ivycheck lsp``, its imports and an exit): the cache is written
    under ``XDG_CACHE_HOME``, and the next start compiles none of lsprotocol's classes."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    count = (
        "from ivycheck.lsp import generated_code; code = generated_code.install(); "
        "import ivycheck.lsp.server; print(code.compiled); code.save()"
    )
    run = [sys.executable, "-c", count]
    first = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    assert int(first.stdout) > 500  # lsprotocol's classes
    cached = list((tmp_path / "ivycheck").iterdir())
    assert [p.name for p in cached] == [default_path().name]
    second = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
    assert int(second.stdout) == 0
