"""Ctrl-C while the command is still importing ends it like a Ctrl-C later on.

The signal is real: an import hook sends SIGINT to the process itself when the checker's
command module (or the server's) starts importing, which is where a user's Ctrl-C lands
while the interpreter loads libcst and the rules.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SEND_SIGINT_ON_IMPORT = textwrap.dedent(
    """
    import importlib.abc, os, signal, sys

    # As in a terminal: a test runner started in the background (no job control) passes
    # its children SIGINT ignored, and an ignored signal interrupts nothing.
    signal.signal(signal.SIGINT, signal.default_int_handler)

    class Interrupt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == sys.argv[1]:
                os.kill(os.getpid(), signal.SIGINT)
            return None

    sys.meta_path.insert(0, Interrupt())
    from ivycheck.cli import main
    raise SystemExit(main(sys.argv[2:]))
    """
)


@pytest.mark.parametrize(
    ("module", "arguments"),
    [
        ("ivycheck.checker.frontends.cli", ["--version"]),
        ("ivycheck.checker.core.registry", ["--version"]),
        ("ivycheck.lsp.cli", ["lsp", "--help"]),
    ],
)
def test_ctrl_c_during_start_up_prints_one_line_and_exits_130(
    module: str, arguments: list[str]
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SEND_SIGINT_ON_IMPORT, module, *arguments],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "ivycheck: interrupted\n"
    assert done.stdout == ""
