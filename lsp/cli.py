"""``ivycheck lsp`` and ``ivycheck-lsp``: start the language server on stdio or TCP."""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Sequence

log = logging.getLogger("ivycheck.lsp")


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host, int(port)


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ivycheck lsp", description="Run the ivycheck language server."
    )
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    transport.add_argument("--tcp", type=_address, metavar="HOST:PORT", help="listen on TCP")
    parser.add_argument("--log-file", help="write the server's log here (default: standard error)")
    parser.add_argument(
        "--log-level",
        choices=LEVELS,
        default=None,
        help="what the server logs (default: $IVYCHECK_LOG_LEVEL, else warning); `info` "
        "adds what it does (indexing, workspace checks), `debug` also pygls's own log",
    )
    args = parser.parse_args(argv)
    level = args.log_level or os.environ.get("IVYCHECK_LOG_LEVEL", "warning").lower()
    if level not in LEVELS:
        parser.error(f"IVYCHECK_LOG_LEVEL must be one of {', '.join(LEVELS)}, not {level!r}")
    configure_logging(level, args.log_file)
    timing("main() entered")
    from ivycheck.lsp.server import server

    timing("modules imported")

    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
