"""The ``ivycheck`` command: ``ivycheck lsp ...`` starts the language server, anything
else checks code (:mod:`ivycheck.checker.cli`).

Dispatched here, above both, so that the checker never imports the language server (nor
pygls, which only the server needs).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ivycheck.checker.cli import main as check_main


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["lsp"]:
        from ivycheck.lsp.cli import main as lsp_main

        return lsp_main(arguments[1:])
    return check_main(arguments)
