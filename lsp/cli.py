"""``ivycheck lsp`` and ``ivycheck-lsp``: start the language server on stdio, TCP or a
shared Unix socket (:mod:`ivycheck.lsp.shared`)."""

from __future__ import annotations

import argparse
import gc
import logging
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from ivycheck.lsp import generated_code
from ivycheck.lsp.logs import LEVELS, ClientLog, configure_logging, log, timing
from ivycheck.lsp.rendezvous import UnsafeFolder, check_socket_path, claim, default_socket

CLAIM_WAIT_SECONDS = 5.0
"""How long a new shared server waits for its socket's lock: a restarted server's
predecessor may still be leaving. A live server that holds it longer serves that
socket, and this one exits."""


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host, int(port)


def _seconds(value: str) -> float:
    """A wait in seconds: a number, not negative (``inf``: never)."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not seconds >= 0:  # also NaN, which every comparison refutes
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {value!r}")
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ivycheck lsp", description="Run the ivycheck language server."
    )
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    transport.add_argument("--tcp", type=_address, metavar="HOST:PORT", help="listen on TCP")
    transport.add_argument(
        "--shared",
        nargs="?",
        const="",
        metavar="SOCKET",
        help="serve one client after another on a Unix socket, keeping the index between "
        "them (an editor's window reload reconnects to a warm server); the socket's folder "
        "must be private (made 0700). Default socket: in $XDG_RUNTIME_DIR/ivycheck (else "
        "~/.cache/ivycheck/lsp), named by ivycheck's version, the interpreter and the "
        "current folder",
    )
    parser.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="with --shared: exit this long after the last client left (default 10)",
    )
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
    client_log = ClientLog()
    if args.shared is not None:  # what the server logs reaches its clients as well
        logging.getLogger("ivycheck").addHandler(client_log)
    timing("main() entered")
    # Before the server's imports: a module file changed from now on may not be the code
    # the server runs (:mod:`ivycheck.lsp.loaded_code`).
    code_since = time.time_ns()
    lock: int | None = None
    if args.shared is not None:
        socket = Path(args.shared) if args.shared else default_socket(os.getcwd())
        try:
            check_socket_path(socket)
            lock = claim(socket, CLAIM_WAIT_SECONDS)
        except (UnsafeFolder, OSError) as err:
            print(f"ivycheck lsp: {err}", file=sys.stderr)
            return 2
        if lock is None:  # its clients connect to that one
            log.warning("another ivycheck server serves %s", socket)
            return 0
    elif args.idle_timeout is not None:
        parser.error("--idle-timeout applies to --shared only")
    # The imports (pygls, lsprotocol's ~550 attrs classes, the checker; not libcst, which
    # only a fix's text needs: tests/lsp/test_layering.py) allocate
    # hundreds of thousands of objects that live as long as the process, and none of them
    # garbage: the cyclic collector's passes over them during the import are wasted, about
    # a tenth of the import's CPU (0.05 s of 0.5 s here), all of it on the way to the first
    # diagnostics after a window reload. Off while importing, then the imported objects
    # are moved out of every generation (``gc.freeze``), so no later collection walks them.
    gc.disable()
    try:
        code = generated_code.install()
        from ivycheck.lsp.server import server
    finally:
        gc.freeze()
        gc.enable()

    timing("modules imported")

    try:
        if args.shared is not None:
            from ivycheck.lsp.shared import DEFAULT_IDLE_SECONDS, SharedServer

            idle = DEFAULT_IDLE_SECONDS if args.idle_timeout is None else args.idle_timeout
            from ivycheck.lsp.loaded_code import LoadedCode

            loaded = LoadedCode(__name__.partition(".")[0], code_since)  # the package
            SharedServer(server, socket, idle, client_log, loaded).run()
        elif args.tcp:
            server.start_tcp(*args.tcp)
        else:
            server.start_io()
    finally:
        code.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
