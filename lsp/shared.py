"""``ivycheck lsp --shared``: one server that clients take turns with, over a Unix socket.

An editor that runs its server over stdio starts a new one with every window, and a
window reload is such a start: the new process imports its modules and reads the index
again before the restored file gets its squiggle. A shared server outlives its client:

- it listens on a socket in a private folder (:mod:`ivycheck.lsp.rendezvous`: where, who
  may use it, a dead server's socket replaced);
- it serves **one client at a time**. Each connection first gets one line,
  ``ivycheck-lsp <version> ready pid=<pid>`` (then LSP as usual) or ``... busy ...``
  (another client holds it; the connection is closed, and that client starts a server
  of its own);
- before it greets a new client ``ready``, it checks that the ivycheck code it imported
  is still what is on disk (:mod:`ivycheck.lsp.loaded_code`): after an upgrade or an edit
  of the source, it greets ``... stale ...`` instead, closes the connection and exits at
  once (its socket removed, its lock released), so that the client starts a server that
  runs the new code (a client that does not know ``stale`` takes it as ``busy``);
- when the client goes (``shutdown`` and ``exit``, or its connection drops), the server
  forgets what was the client's and keeps the index
  (:meth:`~ivycheck.lsp.server.IvycheckServer.forget_client`); the next client's
  ``initialized`` first reads again what changed on disk meanwhile;
- it exits by itself ``idle_timeout`` seconds after the last client left (or after it
  started, if none comes), and at ``SIGTERM`` (the editor's "restart"), removing its
  socket.

While a client is connected, what the server logs (its timing marks among them) also
goes to that client as ``window/logMessage``: its standard error is a file nobody
watches; what was logged before the first client came (the imports' marks) is sent to it
as it connects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
from pathlib import Path

from ivycheck.lsp import transport
from ivycheck.lsp.loaded_code import LoadedCode
from ivycheck.lsp.logs import ClientLog
from ivycheck.lsp.rendezvous import greeting
from ivycheck.lsp.server import IvycheckServer

DEFAULT_IDLE_SECONDS = 10.0
"""How long a shared server waits for the next client: a window reload reconnects
within 3-6 s on a busy machine (VS Code's own start), and a server left behind costs its
memory (about 100 MB for the Ivy snapshot) until then."""
log = logging.getLogger(__name__)


class SharedServer:
    """The listening socket, its one client at a time, and the exit when idle."""

    def __init__(
        self,
        server: IvycheckServer,
        path: Path,
        idle_timeout: float,
        client_log: ClientLog,
        code: LoadedCode,
    ) -> None:
        self.server = server
        self.path = path
        self.idle_timeout = idle_timeout
        self.slot = asyncio.Lock()
        self.leaving = False
        """The last client is being forgotten: a new one waits for it, it is not busy."""
        self.idle: asyncio.TimerHandle | None = None
        self.stopped: asyncio.Future[None] | None = None
        self.client_log = client_log
        self.code = code
        self.stale: str | None = None
        """Why the code on disk is no longer the code imported, once known (for good)."""

    def run(self) -> None:
        """Serve until idle or told to stop. The socket's lock is held already
        (:func:`~ivycheck.lsp.rendezvous.claim`, before the server's imports)."""
        self.server.shared = True
        try:
            asyncio.run(self._serve())
        finally:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # ours: the lock is held until the process ends

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.stopped = loop.create_future()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stop)
        self.client_log.serve(loop)
        # Made 0600 as it is bound (no moment where another user could connect); the
        # umask is the process's, and no other thread makes files now.
        mask = os.umask(0o177)
        try:
            listener = await asyncio.start_unix_server(
                self._connection, path=str(self.path), limit=transport.MAX_LINE_BYTES
            )
        finally:
            os.umask(mask)
        log.info("shared server listening on %s", self.path)
        # Stamped now, off the first client's way (it checks again).
        self.stale = self.code.changed()
        self._wait_idle()
        try:
            await self.stopped
        finally:
            listener.close()

    def banner(self) -> str | None:
        """The launcher's line naming the copy of ivycheck that serves (the VS Code
        extension's ``launch.py`` hands it over in ``IVYCHECK_LAUNCH_LINE``), for the
        client: as written for the first, as a server serving again for the next."""
        line = os.environ.get("IVYCHECK_LAUNCH_LINE")
        if line is None or self.server.clients <= 1:
            return line
        again = f"the shared language server (pid {os.getpid()}) serves this window"
        return line.replace("starting the language server", again, 1)

    def stop(self) -> None:
        if self.stopped is not None and not self.stopped.done():
            self.stopped.set_result(None)

    def _wait_idle(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(self.idle_timeout, self._idle_exit)

    def _idle_exit(self) -> None:
        log.info("no client for %g s: the shared server exits", self.idle_timeout)
        self.stop()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.slot.locked() and not self.leaving:
            await _refuse(writer)
            return
        self.stale = self.stale or self.code.changed()
        if self.stale is not None:
            await self._retire(writer)
            return
        async with self.slot:
            if self.idle is not None:
                self.idle.cancel()
                self.idle = None
            try:
                writer.write(greeting("ready", os.getpid()))
                self.server.attach_client(writer)
                self.client_log.connect(self.server.protocol._send_data, self.banner())
                source = transport.StreamSource(reader)
                messages = transport.MessageReader(source, self.server.protocol._send_data)
                await transport.serve(threading.Event(), messages, self.server.handle_body)
            except ConnectionError:
                pass  # the client went without a word: as if it had closed the connection
            finally:
                self.leaving = True
                self.client_log.disconnect()
                try:
                    await self.server.forget_client()
                except asyncio.CancelledError:
                    pass  # the server is stopping: nothing to keep
                finally:
                    self.leaving = False
                    writer.close()
                    self._wait_idle()

    async def _retire(self, writer: asyncio.StreamWriter) -> None:
        """Tell a client this server runs code no longer on disk, and exit."""
        log.info("%s: this server exits (the next one runs the code on disk)", self.stale)
        await _greet_and_close(writer, "stale")
        self.stop()


async def _refuse(writer: asyncio.StreamWriter) -> None:
    """Tell a second client the server is taken, and close its connection."""
    log.info("a second client was turned away (one client at a time)")
    await _greet_and_close(writer, "busy")


async def _greet_and_close(writer: asyncio.StreamWriter, word: str) -> None:
    """The greeting's one line with ``word`` (not ``ready``: no LSP follows), then the
    connection closed; a client already gone is no error."""
    with contextlib.suppress(ConnectionError):
        writer.write(greeting(word, os.getpid()))
        await writer.drain()
    writer.close()


__all__ = ["DEFAULT_IDLE_SECONDS", "SharedServer"]
