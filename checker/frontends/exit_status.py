"""The command's exit statuses, flake8's and Ruff's: what a CI gate reads.

Kept apart from the command's module so that ``ivycheck.cli``, which dispatches to the
checker or the language server and must end a Ctrl-C during their imports the same way,
can name them without importing either.
"""

from __future__ import annotations

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as a shell reports a process ended by Ctrl-C."""
INTERRUPTED = "ivycheck: interrupted\n"
