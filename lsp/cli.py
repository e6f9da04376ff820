"""``ivycheck lsp`` and ``ivycheck-lsp``: start the language server on stdio or TCP."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Sequence


def _address(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host, int(port)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="ivycheck lsp", description="Run the ivycheck language server."
    )
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    transport.add_argument("--tcp", type=_address, metavar="HOST:PORT", help="listen on TCP")
    parser.add_argument("--log-file", help="write the server's own log here")
    args = parser.parse_args(argv)
    if args.log_file:
        logging.basicConfig(filename=args.log_file, level=logging.INFO)
    from ivycheck.lsp.server import server

    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
