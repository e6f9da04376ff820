"""The server's log: its level, where it goes, and the start-up timing marks.

Apart from the command-line module so that the server can write a mark without importing
the module that imports it (``cli`` imports ``server`` to start it).
"""

from __future__ import annotations

import logging
import time

log = logging.getLogger("ivycheck.lsp")

LEVELS = ("error", "warning", "info", "debug")


def timing(what: str) -> None:
    """A start-up timing mark at ``debug`` (wall-clock milliseconds since the epoch, as the
    VS Code extension's own marks): where the time to the first diagnostics goes."""
    if log.isEnabledFor(logging.DEBUG):
        log.debug("timing: server %s at %d", what, time.time() * 1000)


def configure_logging(level: str, log_file: str | None = None) -> None:
    """The server's own log at ``level``, on standard error (which editors show in their
    output panel) or in ``log_file``. pygls's log is library noise to a user (a warning
    for each cancelled request already answered, tracebacks the server reports in one
    line itself): it is shown only at ``debug``."""
    handler: logging.Handler = (
        logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler()
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper()))
    quiet = logging.DEBUG if level == "debug" else logging.CRITICAL + 1
    for name in ("pygls", "lsprotocol"):
        logging.getLogger(name).setLevel(quiet)
