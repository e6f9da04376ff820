"""A cache a repository plants is never trusted, never followed, and never hangs or crashes a run.

A pull request can carry ``.ivycheck_cache/`` (or a link in its place), and CI, pre-commit,
flake8 and the editor all read it. Each case below was an attack on an earlier version:

- the journal committed as a link to a file the user can write (a shell rc file), and a
  source file named ``$(touch PWNED).py``: the next run appended that name to the rc file;
- a forged cache (the right checksum, entries listing no findings) hid real findings;
- a 38-byte header claiming 10**9 lines hung every front end;
- an entry of 200,000 ``[`` (right checksum) crashed every run with a ``RecursionError``;
- the cache folder itself a link out of the project, or a dangling ``.gitignore`` link in
  it: the run wrote through them.

Each now gives the findings and exit status of ``--no-cache``, no traceback, and writes
nothing outside the project. Every run has its own per-user key folder
(``XDG_CACHE_HOME``), so "this machine" is the test's, and an attacker's key is another.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ivycheck.checker.run import cache as cache_module
from ivycheck.checker.run import git_tracked
from tests.helpers import IVYCHECK, run_ivycheck, write_tree

API = "ivy/functional/ivy/$(touch PWNED).py"
BACKEND = "ivy/functional/backends/numpy/elementwise.py"
FILES = {
    "pyproject.toml": "[tool.ivycheck]\n",
    API: """\
        @to_native_arrays_and_back
        @handle_out_argument
        def tan(x, /, *, out=None):
            return current_backend(x).tan(x, out=out)


        @to_native_arrays_and_back
        @handle_out_argument
        def cos(x, /, *, out=None):
            return current_backend(x).cos(x, out=out)
        """,
    BACKEND: """\
        import numpy as np

        def tan(x, /, *, out=None):
            return np.tan(x, out=out)

        def cos(x, /, *, out=None):
            return np.cos(x)
        """,
    # Enough other files that one changed entry is appended to the journal, not rewritten.
    **{f"ivy/utils/helper_{n}.py": f"def helper_{n}(x):\n    return x\n" for n in range(16)},
}

Run = Callable[[Path, bool], tuple[int, list[str], str]]


def _env(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CACHE_HOME": str(tmp_path / "user-cache"), "NO_COLOR": "1"}


def _project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", FILES)


def _findings(output: str) -> list[str]:
    return sorted(line.removeprefix("./") for line in output.splitlines() if ": IVY" in line)


def _command(env: dict[str, str]) -> Run:
    def run(root: Path, cached: bool) -> tuple[int, list[str], str]:
        done = run_ivycheck(".", *([] if cached else ["--no-cache"]), cwd=root, env=env)
        return done.returncode, _findings(done.stdout), done.stderr

    return run


def _flake8(env: dict[str, str]) -> Run:
    def run(root: Path, cached: bool) -> tuple[int, list[str], str]:
        command = [sys.executable, "-m", "flake8", "--select", "IVY", "."]
        done = subprocess.run(
            command + ([] if cached else ["--ivycheck-no-cache"]),
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, **env},
        )
        return done.returncode, _findings(done.stdout), done.stderr

    return run


def _pre_commit(env: dict[str, str]) -> Run:
    """``pre-commit run --all-files`` with ivycheck as a local hook (this checkout's code):
    the repository is made on the first run, the cache folder left to its ``.gitignore``
    (the hook's output, standard error included, comes on pre-commit's standard output)."""

    def run(root: Path, cached: bool) -> tuple[int, list[str], str]:
        if not (root / ".git").exists():
            _commit_all(root, ".")
        arguments = "" if cached else "\n    args: [--no-cache]"
        (root / ".pre-commit-config.yaml").write_text(_HOOK + arguments + "\n")
        done = subprocess.run(
            [str(Path(sys.executable).with_name("pre-commit")), "run", "--all-files"],
            cwd=root,
            capture_output=True,
            text=True,
            env=_pre_commit_environment(root, env),
            timeout=300,
        )
        return done.returncode, _findings(done.stdout), done.stdout + done.stderr

    return run


_HOOK = (
    "repos:\n- repo: local\n  hooks:\n  - id: ivycheck\n    name: ivycheck\n"
    f"    entry: {IVYCHECK}\n    language: system\n    types: [python]\n"
    "    require_serial: true"
)


def _pre_commit_environment(root: Path, env: dict[str, str]) -> dict[str, str]:
    environment = {**os.environ, **env, "PRE_COMMIT_HOME": str(root.parent / "pre-commit")}
    environment.pop("VIRTUAL_ENV", None)
    return environment


def _commit_all(root: Path, *paths: str) -> None:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=root, check=True)
    subprocess.run([*git, "add", *paths], cwd=root, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "planted"], cwd=root, check=True)


# --- what a hostile repository plants -------------------------------------------------


def _cache_folder(root: Path) -> Path:
    return root / ".ivycheck_cache"


def _main_file(root: Path) -> Path:
    [main] = _cache_folder(root).glob("results-*.json")
    return main


def _touch_backend(root: Path) -> None:
    """A change, so that the next run has an entry to save."""
    path = root / BACKEND
    path.write_text(path.read_text() + "\n# touched\n")


def _signed(lines: dict[str, bytes], key: bytes) -> bytes:
    """A record as the attacker's own machine signs it (today's: with the right CRC)."""
    try:
        return cache_module._record(lines, key)  # type: ignore[call-arg]
    except TypeError:  # a cache that only has a checksum
        return cache_module._record(lines)  # type: ignore[call-arg]


def _entries(main: Path) -> dict[str, bytes]:
    """The entries of the main file, as the attacker reads them (the format is public)."""
    _, _, body = main.read_bytes().partition(b"\n")
    entries = {}
    for line in body.splitlines():
        key, _, entry = line.partition(b"\t")
        entries[json.loads(key)] = entry
    return entries


def _plant_journal_link(root: Path, victim: Path) -> None:
    main = _main_file(root)
    main.with_suffix(".journal").unlink(missing_ok=True)
    main.with_suffix(".journal").symlink_to(victim)
    _touch_backend(root)


def _plant_forged_findings(root: Path, victim: Path) -> None:
    """Every entry says "no findings", signed with a key of the attacker's."""
    main = _main_file(root)
    forged = {}
    for path, entry in _entries(main).items():
        meta, _, blob = entry.partition(b"\t")
        fields = json.loads(meta)
        fields[-1] = []
        forged[path] = json.dumps(fields, separators=(",", ":")).encode() + b"\t" + blob
    main.write_bytes(_signed(forged, os.urandom(32)))


def _plant_huge_count(root: Path, victim: Path) -> None:
    """The header alone, every count in it claiming 10**9 lines."""
    main = _main_file(root)
    head = main.read_bytes().partition(b"\n")[0].split(b" ")
    main.write_bytes(b" ".join(b"1000000000" if f.isdigit() else f for f in head) + b"\n")


def _plant_deep_nesting(root: Path, victim: Path) -> None:
    main = _main_file(root)
    main.write_bytes(_signed({str(root / API): b"[" * 200_000}, os.urandom(32)))


def _plant_folder_link(root: Path, victim: Path) -> None:
    folder = _cache_folder(root)
    for item in folder.iterdir():
        item.unlink()
    folder.rmdir()
    victim.mkdir()
    folder.symlink_to(victim)
    _touch_backend(root)


def _plant_dangling_gitignore(root: Path, victim: Path) -> None:
    folder = _cache_folder(root)
    for item in folder.iterdir():
        item.unlink()
    (folder / ".gitignore").symlink_to(victim)


PLANTS: dict[str, Callable[[Path, Path], None]] = {
    "journal linked to an rc file": _plant_journal_link,
    "forged findings": _plant_forged_findings,
    "a header claiming 10**9 lines": _plant_huge_count,
    "200,000 nested brackets": _plant_deep_nesting,
    "cache folder linked out of the project": _plant_folder_link,
    "dangling .gitignore link": _plant_dangling_gitignore,
}

LINKS = {"journal linked to an rc file", "cache folder linked out of the project"}


def _one_plant_fast() -> list[Any]:
    """Every plant, the journal link (code execution) in ``make test`` and the others in
    ``make test-slow``: flake8 and the language server read the cache through the same code
    the command does, which meets every plant in ``make test``."""
    return [
        pytest.param(
            plant, marks=() if plant == "journal linked to an rc file" else pytest.mark.slow
        )
        for plant in sorted(PLANTS)
    ]


def _victim(tmp_path: Path, plant: str) -> Path:
    """What a link points at, outside the project: a stand-in rc file, or nothing yet."""
    victim = tmp_path / "outside" / "bashrc"
    victim.parent.mkdir()
    if plant == "journal linked to an rc file":
        victim.write_text("# the user's shell start-up file\n")
    return victim


def _outside_untouched(victim: Path, before: dict[str, bytes]) -> None:
    found = {str(p): p.read_bytes() for p in victim.parent.rglob("*") if p.is_file()}
    assert found == before


def _hostile_run(tmp_path: Path, plant: str, front: Callable[[dict[str, str]], Run]) -> None:
    env = _env(tmp_path)
    run = front(env)
    root = _project(tmp_path)
    run_ivycheck(".", cwd=root, env=env)  # a real cache first: the names this version reads
    victim = _victim(tmp_path, plant)
    PLANTS[plant](root, victim)
    before = {str(p): p.read_bytes() for p in victim.parent.rglob("*") if p.is_file()}
    expected = run(root, False)
    assert expected[0] == 1 and expected[1], expected

    code, found, stderr = run(root, True)
    assert (code, found) == expected[:2]
    assert "Traceback" not in stderr
    if plant in LINKS and not git_tracked.tracks(_cache_folder(root)):
        assert "symbolic link" in stderr, stderr  # (a link git tracks: quietly unused)
    _outside_untouched(victim, before)
    assert not (root / "PWNED").exists() and not Path("PWNED").exists()
    assert run(root, True)[:2] == expected[:2]  # and again, after the save
    _outside_untouched(victim, before)


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_the_command_gives_its_uncached_findings_whatever_the_cache(
    tmp_path: Path, plant: str
) -> None:
    _hostile_run(tmp_path, plant, _command)


@pytest.mark.parametrize("plant", _one_plant_fast())
def test_flake8_gives_its_uncached_findings_whatever_the_cache(tmp_path: Path, plant: str) -> None:
    _hostile_run(tmp_path, plant, _flake8)


@pytest.mark.asyncio
@pytest.mark.parametrize("plant", _one_plant_fast())
async def test_the_language_server_gives_its_uncached_findings_whatever_the_cache(
    tmp_path: Path, plant: str
) -> None:
    """The real server over stdio: the diagnostics of an uncached run, nothing written
    outside the project."""
    from tests.lsp.harness import open_document, published, server

    env = _env(tmp_path)
    root = _project(tmp_path)
    run_ivycheck(".", cwd=root, env=env)
    victim = _victim(tmp_path, plant)
    PLANTS[plant](root, victim)
    before = {str(p): p.read_bytes() for p in victim.parent.rglob("*") if p.is_file()}
    expected = [
        line.split(": ")[1].split()[0]
        for line in _command(env)(root, False)[1]
        if line.startswith(BACKEND)
    ]
    async with server(root, env=env) as client:
        document = open_document(client, root / BACKEND)
        found = await published(client, document, lambda d: len(d) == len(expected))
        assert [str(d.code) for d in found] == expected
        document = open_document(client, root / API)
        await published(client, document, lambda d: len(d) == 2)
    _outside_untouched(victim, before)


@pytest.mark.slow  # the hook runs the command tested above; the committed cache is below
@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_pre_commit_gives_its_uncached_findings_whatever_the_cache(
    tmp_path: Path, plant: str
) -> None:
    _hostile_run(tmp_path, plant, _pre_commit)


def test_pre_commit_gives_its_uncached_findings_with_a_committed_cache(tmp_path: Path) -> None:
    """A repository that commits ``.ivycheck_cache/`` with its journal linked to an rc file
    and its findings forged: the hook reports what ``--no-cache`` does and appends nothing
    anywhere; the cache git tracks is not used, and ``--show-settings`` says so."""
    env = _env(tmp_path)
    root = _project(tmp_path)
    run_ivycheck(".", cwd=root, env=env)
    victim = _victim(tmp_path, "journal linked to an rc file")
    _plant_forged_findings(root, victim)
    _plant_journal_link(root, victim)
    (root / ".ivycheck_cache/.gitignore").unlink()
    _commit_all(root, "-f", ".")
    before = victim.read_bytes()
    settings = run_ivycheck("--show-settings", ".", cwd=root, env=env).stdout.splitlines()
    assert f"# cache: {root / '.ivycheck_cache'} (not used: git tracks it)" in settings
    expected = _command(env)(root, False)
    code, found, output = _pre_commit(env)(root, True)
    assert (code, found) == expected[:2]
    assert "Traceback" not in output
    assert victim.read_bytes() == before
    assert not (root / "PWNED").exists()
