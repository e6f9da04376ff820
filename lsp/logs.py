"""The server's log: its level, where it goes, and the start-up timing marks.

Apart from the command-line module so that the server can write a mark without importing
the module that imports it (``cli`` imports ``server`` to start it).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

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


BACKLOG = 200
"""Log records kept for a client that is not there yet."""
_MESSAGE_TYPES = ((logging.ERROR, 1), (logging.WARNING, 2), (logging.INFO, 3))
"""LSP's ``MessageType`` for a record's level (``Log``, 4, below ``INFO``)."""


class ClientLog(logging.Handler):
    """The server's log, also to the connected client as ``window/logMessage``: a shared
    server (:mod:`ivycheck.lsp.shared`) writes its standard error to a file nobody
    watches. Made before the server's imports, so that their timing marks wait in
    :attr:`backlog` and reach the first client as it connects; sent on the event loop's
    thread whichever thread logs (the checking thread writes marks too). JSON made here,
    without lsprotocol: this module is imported before it."""

    def __init__(self) -> None:
        super().__init__()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.send: Callable[[dict[str, Any]], None] | None = None
        self.backlog: collections.deque[dict[str, Any]] = collections.deque(maxlen=BACKLOG)
        self.setFormatter(logging.Formatter("%(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        kind = next((k for level, k in _MESSAGE_TYPES if record.levelno >= level), 4)
        message = {
            "jsonrpc": "2.0",
            "method": "window/logMessage",
            "params": {"type": kind, "message": self.format(record)},
        }
        if self.loop is None:
            self.backlog.append(message)
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is leaving
            self.loop.call_soon_threadsafe(self._send, message)

    def _send(self, message: dict[str, Any]) -> None:
        if self.send is None:
            self.backlog.append(message)
        else:
            self.send(message)

    def serve(self, loop: asyncio.AbstractEventLoop) -> None:
        """From now on, records are handed to ``loop``'s thread."""
        self.loop = loop

    def connect(self, send: Callable[[dict[str, Any]], None], banner: str | None) -> None:
        """A client connected: ``banner`` (which ivycheck serves it) and what waited go
        to it first, then everything as logged."""
        self.send = send
        if banner is not None:
            send(
                {
                    "jsonrpc": "2.0",
                    "method": "window/logMessage",
                    "params": {"type": 3, "message": banner},
                }
            )
        while self.backlog:
            send(self.backlog.popleft())

    def disconnect(self) -> None:
        self.send = None
