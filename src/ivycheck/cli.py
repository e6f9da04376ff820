"""The ``ivycheck`` command: ``ivycheck lsp ...`` starts the language server, anything
else checks code (:mod:`ivycheck.checker.frontends.cli`).

Dispatched here, above both, so that the checker never imports the language server (nor
pygls, which only the server needs). Both are imported inside :func:`main`, under its
Ctrl-C handling: the imports are most of the start-up time, and a Ctrl-C that lands in
them must end the run like one that lands later (one line, exit 130), not with a
traceback through the import machinery.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ivycheck.checker.frontends.exit_status import EXIT_INTERRUPTED, INTERRUPTED


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["lsp"]:
            from ivycheck.lsp.cli import main as lsp_main

            return lsp_main(arguments[1:])
        from ivycheck.checker.frontends.cli import main as check_main

        return check_main(arguments)
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        return EXIT_INTERRUPTED
