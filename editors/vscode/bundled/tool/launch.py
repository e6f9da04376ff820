"""Start ivycheck (its language server, for the VS Code extension) with the chosen import strategy.

The extension runs ``<interpreter> bundled/tool/launch.py lsp ...`` with
``IVYCHECK_IMPORT_STRATEGY`` set from its ``ivycheck.importStrategy`` setting, as Microsoft's
Python tool extensions do:

- ``useBundled`` (default): the copy in ``bundled/libs/<tag>`` comes first on ``sys.path``;
- ``fromEnvironment``: the interpreter's own installation comes first, the bundled copy is
  the fallback.

``<tag>`` (``--print-tag``) names the interpreter's ABI and platform, because ivycheck's
dependencies ship compiled code (libcst's parser): one interpreter can only use libraries
installed for its own Python version and platform, so the extension is built with one
directory per interpreter it supports (``editors/vscode/scripts/bundle.py``). When no
directory fits, the server can still come from the environment; if it cannot, this script
says why on standard error and exits with status 3 instead of a traceback. ``--check`` does
only that test: the extension runs it first and shows the message, because a server that
exits before answering ``initialize`` leaves the language client with failures it does not
handle itself. On success ``--check`` prints ``bundled <tag>`` or ``environment``: the copy
that would serve.

Standard library only: it runs before any of ivycheck's dependencies are importable.
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
import sysconfig
from pathlib import Path

STRATEGIES = ("useBundled", "fromEnvironment")
LIBS = Path(__file__).resolve().parent.parent / "libs"


def tag() -> str:
    """``cpython-311-linux-x86_64``: what the compiled dependencies must match."""
    return f"{sys.implementation.cache_tag}-{sysconfig.get_platform()}"


def _fail(message: str) -> int:
    print(f"ivycheck: {message}", file=sys.stderr)
    return 3


def _version(package: Path) -> str:
    """The version in ``ivycheck/_version.py``-like sources, without importing ivycheck
    (its import is the server's own start, after this line)."""
    for name in ("_version.py", "__init__.py"):
        try:
            text = (package / name).read_text(encoding="utf-8")
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("__version__") and "=" in line:
                return line.split("=", 1)[1].strip().strip("\"'")
    return "(version unknown)"


def _no_server_message(strategy: str) -> str:
    """Why this interpreter cannot run the server, and the one thing to do about it."""
    bundled = sorted(p.name for p in LIBS.iterdir()) if LIBS.is_dir() else []
    here = f"{sys.executable} (Python {sys.version.split()[0]}, {tag()})"
    if sys.version_info < (3, 11):  # noqa: UP036 - the launcher runs on any Python 3
        return (
            f"{here} is too old: ivycheck needs Python 3.11 or newer. Set ivycheck.interpreter "
            f"to a Python the extension bundles ivycheck for ({', '.join(bundled) or 'none'})."
        )
    if strategy == "fromEnvironment":
        return (
            f"{here} has no ivycheck installed, and the extension bundles none for it "
            f"(bundled for: {', '.join(bundled) or 'none'}). Install ivycheck into it "
            "(pip install /path/to/a/clone/of/ivycheck, distribution ivycheck-lint), or set "
            "ivycheck.interpreter to a Python the extension bundles ivycheck for."
        )
    return (
        f"the extension bundles ivycheck only for {', '.join(bundled) or 'no interpreter'}, "
        f"not for {here}, which has no ivycheck installed. Set ivycheck.interpreter to a "
        "Python of a bundled version; or install ivycheck into this one (pip install "
        "/path/to/a/clone/of/ivycheck, distribution ivycheck-lint) and set "
        "ivycheck.importStrategy to fromEnvironment."
    )


def main(argv: list[str]) -> int:
    if argv == ["--print-tag"]:
        print(tag())
        return 0
    strategy = os.environ.get("IVYCHECK_IMPORT_STRATEGY", "useBundled")
    if strategy not in STRATEGIES:
        return _fail(f"importStrategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    libs = LIBS / tag()
    if libs.is_dir():
        if strategy == "useBundled":
            sys.path.insert(0, str(libs))
        else:
            sys.path.append(str(libs))
    spec = importlib.util.find_spec("ivycheck") if sys.version_info >= (3, 11) else None
    if spec is None:
        return _fail(_no_server_message(strategy))
    origin = Path(spec.origin or "").resolve().parent
    if argv == ["--check"]:
        # Which copy would serve: the extension remembers a pass of the bundled copy (it
        # stays while the interpreter and the extension do) and checks again otherwise.
        print(f"bundled {libs.name}" if libs in origin.parents else "environment")
        return 0
    # One line naming the copy that runs (the editor shows standard error in its log).
    where = (
        f"bundled with the extension ({libs.name})"
        if libs in origin.parents
        else f"from the interpreter's environment ({origin})"
    )
    line = (
        f"ivycheck: starting the language server: ivycheck {_version(origin)} {where}, "
        f"Python {sys.version.split()[0]} ({sys.executable}), importStrategy {strategy}"
    )
    print(line, file=sys.stderr, flush=True)
    # A shared server (``--shared``) writes its standard error to a file: it sends the
    # line to each window it serves instead.
    os.environ["IVYCHECK_LAUNCH_LINE"] = line
    sys.argv = [str(Path(__file__)), *argv]
    runpy.run_module("ivycheck", run_name="__main__", alter_sys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
