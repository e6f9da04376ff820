"""Reading LSP messages so that bad input cannot break the server.

pygls's reader trusts the ``Content-Length`` header: ``Content-Length: 99999999999`` makes
it allocate that much (a ``MemoryError`` kills the server), and a length shorter than the
body leaves the body's rest in the stream, where it swallows the next message's header
and the server never answers again. This reader

- refuses a message over :data:`MAX_MESSAGE_BYTES` with a JSON-RPC error (id ``null``)
  and skips it without holding it in memory;
- reads header lines in bounded pieces (:data:`MAX_LINE_BYTES`), so a stream of bytes
  without a newline costs no memory either;
- resynchronises: bytes that are no header (the rest of a body whose length was too short,
  noise) are skipped up to the next ``Content-Length`` header, which is found even at the
  end of such a line. A JSON body never holds a raw line break inside a string, so a
  header line cannot be faked by the text of a document.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO, Protocol

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest message body read (a 5 MB document is about 5.5 MB of JSON)."""
MAX_LINE_BYTES = 64 * 1024
"""Header lines are read in pieces of at most this many bytes."""
_HEADER = re.compile(rb"Content-Length[ \t]*:[ \t]*([0-9]+)[ \t]*\r?\n\Z", re.IGNORECASE)
_OTHER_HEADER = re.compile(rb"\A[A-Za-z][A-Za-z0-9-]*[ \t]*:[^\r\n]*\r?\n\Z")
_TAIL = 128
"""Bytes of a cut line kept so that a header split across two pieces is still found."""

log = logging.getLogger(__name__)


class ByteSource(Protocol):
    """Where messages come from: a bounded ``readline`` and ``read`` of exactly ``n``
    bytes (fewer only at the end of the stream)."""

    def readline(self, limit: int) -> Awaitable[bytes]: ...

    def read(self, n: int) -> Awaitable[bytes]: ...


class FileSource:
    """A blocking binary stream (standard input) read on a thread of its own."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lsp-stdin")

    def readline(self, limit: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(
            self.executor, self.stream.readline, limit
        )

    def read(self, n: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self.executor, self._read, n)

    def _read(self, n: int) -> bytes:
        parts = []
        while n > 0:
            part = self.stream.read(n)
            if not part:
                break
            parts.append(part)
            n -= len(part)
        return b"".join(parts)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class StreamSource:
    """An asyncio stream (a TCP connection)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader

    async def readline(self, limit: int) -> bytes:
        try:
            return await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as error:
            return error.partial
        except asyncio.LimitOverrunError as error:
            return await self.reader.read(max(1, min(error.consumed, limit)))

    async def read(self, n: int) -> bytes:
        try:
            return await self.reader.readexactly(n)
        except asyncio.IncompleteReadError as error:
            return error.partial


def refusal(length: int) -> dict[str, Any]:
    """The JSON-RPC error for a message over the size limit (its id is unknown)."""
    return {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32600,
            "message": (
                f"message refused: Content-Length {length} is over the server's limit of "
                f"{MAX_MESSAGE_BYTES} bytes; it was skipped"
            ),
        },
    }


class MessageReader:
    """Message bodies from a :class:`ByteSource` (see the module doc)."""

    def __init__(self, source: ByteSource, refuse: Callable[[dict[str, Any]], None]) -> None:
        self.source = source
        self.refuse = refuse
        self.skipped = 0
        """Bytes skipped while looking for a header (noise, rests of bodies)."""

    async def next_body(self) -> bytes | None:
        """The next message's body, or ``None`` at the end of the stream."""
        length: int | None = None
        tail = b""
        while True:
            line = await self.source.readline(MAX_LINE_BYTES)
            if not line:
                return None
            if not line.endswith(b"\n"):  # a piece of a long line: only noise is that long
                self.skipped += len(line)
                tail = (tail + line)[-_TAIL:]
                continue
            found = _HEADER.search(tail + line)
            if found is not None:
                self.skipped += max(found.start() - len(tail), 0)
                tail = b""
                digits = found.group(1)
                length = int(digits) if len(digits) <= 18 else MAX_MESSAGE_BYTES + 1
                continue
            tail = b""
            if line in (b"\r\n", b"\n"):
                if length is None:
                    continue  # a blank line with no header before it: noise
                if length > MAX_MESSAGE_BYTES:
                    log.warning("refused a message of %d bytes", length)
                    self.refuse(refusal(length))
                    length = None  # skip the body: resynchronise on the next header
                    continue
                body = await self.source.read(length)
                if len(body) < length:
                    return None
                if self.skipped:
                    log.warning("skipped %d bytes that were no LSP message", self.skipped)
                    self.skipped = 0
                return body
            if _OTHER_HEADER.match(line) and length is not None:
                continue  # Content-Type and the like
            self.skipped += len(line)
            length = None  # noise between headers: this header block is not trusted


async def serve(
    stop_event: threading.Event,
    reader: MessageReader,
    handle: Callable[[bytes], None],
) -> None:
    """Read messages and hand each body to ``handle`` until the stream ends."""
    while not stop_event.is_set():
        body = await reader.next_body()
        if body is None:
            break
        handle(body)


def parse(body: bytes, object_hook: Callable[[dict[str, Any]], Any]) -> Any:
    """The message in ``body`` (raises ``ValueError`` for bytes that are not JSON)."""
    return json.loads(body, object_hook=object_hook)


__all__ = [
    "MAX_LINE_BYTES",
    "MAX_MESSAGE_BYTES",
    "ByteSource",
    "FileSource",
    "MessageReader",
    "StreamSource",
    "refusal",
    "serve",
]
