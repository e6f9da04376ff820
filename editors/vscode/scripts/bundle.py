"""Install ivycheck and its dependencies into ``bundled/libs/<tag>``, one directory per interpreter.

    python editors/vscode/scripts/bundle.py OUT_DIR [PYTHON ...]     (default: this interpreter)

What Microsoft's Python tool extensions do at build time (``pip install --target
bundled/libs``), so that installing the ``.vsix`` is all a user does. ivycheck's dependencies
ship compiled code (libcst's parser), so each interpreter gets its own directory, named by
``bundled/tool/launch.py --print-tag`` -- the same function that picks the directory at run
time. The repository is built into a wheel once (a normal, non-editable install), then pip
installs it for each interpreter (``pip --python``), from whatever index the machine's pip
configuration names.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EXTENSION = Path(__file__).resolve().parent.parent
REPO = EXTENSION.parent.parent
LAUNCHER = EXTENSION / "bundled" / "tool" / "launch.py"
SOURCES = ("pyproject.toml", "setup.py", "README.md", "src", "runtime", "rules", "checker", "lsp")
"""What the wheel is built from (``setup.py`` maps the four folders onto ``ivycheck``)."""


def _pip(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args, "--quiet"],
        check=True,
    )


def executable(name: str) -> str:
    """The interpreter's own path for a name on PATH or a path (``python3.12``, a pyenv
    shim, ``.venv/bin/python``): ``pip --python`` takes only a real interpreter's path."""
    found = shutil.which(name)
    if found is None:
        raise SystemExit(f"bundle.py: no Python interpreter {name!r} (not on PATH, not a file)")
    done = subprocess.run(
        [found, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise SystemExit(f"bundle.py: {name!r} ({found}) does not run: {done.stderr.strip()}")
    return done.stdout.strip()


def _source_copy(scratch: Path) -> Path:
    """The sources the wheel is built from, copied under ``scratch``: setuptools builds in
    the source tree (``build/``, ``*.egg-info``), so two bundles built at once from the
    checkout (two test workers) would write the same files, and the checkout's ``build/``
    also holds its editable install."""
    copy = scratch / "source"
    copy.mkdir()
    caches = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, copy / name, ignore=caches)
        else:
            shutil.copy2(REPO / name, copy / name)
    return copy


def bundle(out: Path, interpreters: list[str]) -> list[Path]:
    """Fill ``out/<tag>`` for each interpreter; returns the directories written."""
    written = []
    with tempfile.TemporaryDirectory() as scratch:
        wheels = Path(scratch) / "wheels"
        _pip("wheel", "--no-deps", "--wheel-dir", str(wheels), str(_source_copy(Path(scratch))))
        (wheel,) = wheels.glob("*.whl")
        for name in interpreters:
            python = executable(name)
            tag = subprocess.run(
                [python, str(LAUNCHER), "--print-tag"], capture_output=True, text=True, check=True
            ).stdout.strip()
            target = out / tag
            shutil.rmtree(target, ignore_errors=True)
            _pip(
                *("--python", python, "install", "--no-compile", "--root-user-action", "ignore"),
                *("--target", str(target), str(wheel)),
            )
            # Console scripts point at the build machine's interpreter; the launcher is the entry.
            shutil.rmtree(target / "bin", ignore_errors=True)
            # Bytecode made now, by the interpreter that will run it, checked against a hash
            # of its source (installing a .vsix sets new file times, which would make
            # timestamp-checked bytecode stale): the server's first start does not compile
            # lsprotocol, pygls, libcst and ivycheck (about 0.3 s of CPU here).
            subprocess.run(
                [
                    python,
                    "-m",
                    "compileall",
                    "-q",
                    "--invalidation-mode",
                    "checked-hash",
                    str(target),
                ],
                check=True,
            )
            written.append(target)
    return written


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    out, interpreters = Path(argv[0]), argv[1:] or [sys.executable]
    for target in bundle(out, interpreters):
        print(f"bundled {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
