"""The ivycheck language server: thin LSP handlers over the engine the CLI uses.

Diagnostics come from the unsaved buffer, on open, on change and on save: a change is
checked at once when no check of the document is running, else once that check ends (the
changes meanwhile coalesce into one run; a run whose text has been superseded is thrown
away). Clients that can pull diagnostics
(``textDocument/diagnostic``, ``workspace/diagnostic`` for the files that are not open,
both with result ids) get them on request and a ``workspace/diagnostic/refresh`` when
other files, the configuration or the index change them; other clients get
``publishDiagnostics``, for closed files too, sent again whenever such a change alters a
closed file's result. Checking runs on a worker thread, so the event loop keeps reading
messages while a file is analysed.

No rule logic lives here: every answer is computed by ``ivycheck.checker`` (through
:class:`~ivycheck.checker.run.projects.Projects`) and translated by ``convert``/``actions``/``hover``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.progress import Progress
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from ivycheck import __version__
from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import INTERNAL_ERROR
from ivycheck.checker.run.config_problems import ConfigProblem, problem_line
from ivycheck.checker.run.projects import Projects
from ivycheck.lsp import actions, generated_code, hover, transport
from ivycheck.lsp.buffers import Buffers
from ivycheck.lsp.checking_thread import DeepStackThread
from ivycheck.lsp.convert import split_lines, to_lsp_diagnostic, to_lsp_json
from ivycheck.lsp.document_uris import document_key, file_uri
from ivycheck.lsp.idle_gc import IdleCollector
from ivycheck.lsp.logs import timing
from ivycheck.lsp.progress import IndexingProgress
from ivycheck.lsp.settings import Settings
from ivycheck.lsp.workspace_results import FileResult, WorkspaceResults, report_id

DEBOUNCE_SECONDS = 0.01
"""A change this soon after the document's previous change is part of a burst (a client
replaying many changes, a formatter): it is checked once the burst pauses this long. A
lone change, a keystroke, is checked at once (waiting for the document's running check,
if any: :meth:`IvycheckServer.schedule`); a fixed 10 ms wait was a fifth of an edit's
time to diagnostics (``benchmarks/lsp_latency.py``). Checks started inside a flood of
changes would slow the reading of the rest (the checking thread holds the GIL)."""
CONFIG_FILES = ("pyproject.toml", "ivycheck.toml", ".ivycheck.toml")
SCAN_STEP_SECONDS = 0.05
"""How long the workspace scan holds the checking thread before a waiting check runs."""
CLOSED_STEP_SECONDS = 0.02
"""How long a round of closed files' results holds the checking thread at a time. Such a
round follows every edit that changes what other files see, while the user pauses: a
keystroke made during a step waits for it (besides, a step starts only when no open
document's check is waiting)."""
WORKSPACE_DEBOUNCE_SECONDS = 0.2
"""Cross-file changes closer together than this re-publish closed files' results once."""
WATCHERS = (*(f"**/{name}" for name in CONFIG_FILES), "**/*.py")
log = logging.getLogger(__name__)
_LOG_LEVELS = {
    types.MessageType.Error: logging.ERROR,
    types.MessageType.Warning: logging.WARNING,
    types.MessageType.Info: logging.INFO,
    types.MessageType.Log: logging.INFO,
}


class IvycheckProtocol(LanguageServerProtocol):
    """pygls logs a request it cannot deserialize and answers nothing; JSON-RPC wants an
    error response (-32602 invalid params), or the client waits forever. Error responses
    carry a message, never the server's Python traceback (pygls puts it in ``data``)."""

    def _send_response(
        self, msg_id: Any, result: Any | None = None, error: types.ResponseError | None = None
    ) -> None:
        if error is not None and error.data is not None:
            log.debug("error response %s: %s (%s)", msg_id, error.message, error.data)
            error = types.ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Any,
        callback: Callable[[Any], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls files the future of an ``async`` notification handler (``didClose``,
        watched files, configuration) under a fresh id that only a response would take
        out again, and a notification has none: each would stay for the server's life.
        Its future leaves the table when it is done, as a request's does."""
        if callback == self._check_handler_result:
            futures, check = self._request_futures, callback

            def done(future: Any) -> None:
                if future.cancelled():
                    # pygls's shutdown cancels what is pending while it iterates this
                    # table, and a generator handler's (``didClose``) future is a
                    # concurrent one, which calls this at once: take it out after.
                    asyncio.get_running_loop().call_soon(futures.pop, msg_id, None)
                else:
                    futures.pop(msg_id, None)
                check(future)  # (not ``callback``: rebound to ``done`` below)

            callback = done
        super()._execute_handler(msg_id, handler, callback, args, kwargs)

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Any:
        """``exit`` ends the process, except for a shared server (``--shared``): there
        it ends the client's connection, and the server waits for the next client."""
        server = self._server
        if not (isinstance(server, IvycheckServer) and server.shared):
            yield from super().lsp_exit(*args)
            return
        if self.writer is not None:
            self.writer.close()

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_data(
                    {
                        "jsonrpc": "2.0",
                        "id": data["id"],
                        "error": {"code": error.code, "message": f"{data['method']}: {error}"},
                    }
                )
            raise


class IvycheckServer(LanguageServer):
    """Per-session state: the project model, the latest results, pending runs."""

    def __init__(self) -> None:
        super().__init__(
            "ivycheck",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=IvycheckProtocol,
        )
        self.project = Projects(tolerant=True)
        self.buffers = Buffers(self.project)
        self.settings = Settings()
        self.results: dict[str, tuple[int | None, list[Diagnostic]]] = {}
        self.closed = WorkspaceResults(self.project)
        self.pushed: dict[str, str] = {}
        """Result id of what was last published for each closed file (push mode)."""
        self.scan_task: asyncio.Task[None] | None = None
        self.workspace_task: asyncio.Task[None] | None = None
        self.pending: dict[str, asyncio.Task[None]] = {}
        """Per document, the run scheduled and not started yet (a newer change cancels it)."""
        self.running: dict[str, asyncio.Task[None]] = {}
        """Per document, the run that is checking or publishing."""
        self.last_change: dict[str, float] = {}
        """Per document, when its last change arrived (event loop time)."""
        self.analysis_thread = DeepStackThread()
        self.pull_mode = False
        self.refresh_support = False
        self.progress_support = False
        self.watching = False
        """Whether the client watches files for us: then a file changes on disk only with
        an event, and an unchanged workspace is answered without looking at it."""
        self.closed_epoch = 0
        """Bumped by everything that may change a closed file's result (an event, an edit
        that other files see, settings, the index): see :meth:`closed_may_change`."""
        self.closed_changed = asyncio.Event()
        self.last_closed_answer: tuple[int, dict[str, str]] | None = None
        """The epoch the last workspace pull was computed at, and the result ids it left
        the client with."""
        self.collector = IdleCollector()
        self.logged_errors: dict[str, set[str]] = {}
        self.shown_problems: dict[Path, ConfigProblem] = {}
        self.checked_once = False
        self.shared = False
        """Serving one client after another (:mod:`ivycheck.lsp.shared`): ``exit`` ends a
        connection, not the process, and a client's leaving forgets only its state."""
        self.clients = 0
        """Clients served so far (shared mode)."""
        self.left_configs: dict[str, tuple[int, int, int] | None] | None = None
        """The configuration files' ``stat`` when the last client left (shared mode)."""
        self.unseen_task: asyncio.Task[None] | None = None
        self.answering = 0
        """Checks of documents under way, each until its answer has been sent: the
        workspace scan and the closed files' rounds start no step meanwhile. A step holds
        the GIL for whole C calls (a large file's parse, a cache record's decoding): one
        taken while a check's answer waits for the event loop delayed the first squiggle
        of a project by up to a second at load 12."""

    def warm_up(self) -> None:
        """Import the rules on the checking thread once ``initialize`` is answered.

        The first diagnostics need every rule's module (0.04-0.1 s of CPU), and nothing
        before them does. After the answer to ``initialize`` the client's next messages
        come only after a round trip through the editor: imported then, the rules are
        ready when the first document arrives (were the document first, its check would
        wait for them on this same thread all the same). Imported as the server started
        serving, they took the GIL from the main thread while it read and answered
        ``initialize``, which the whole client waits for."""
        self.analysis_thread.submit(lambda: self.project.rules)

    # --- transport: bounded, resynchronising reads (see ``transport``) ------------------

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on standard input and output until the client closes them or exits."""
        self._stop_event = stop_event = threading.Event()
        source = transport.FileSource(stdin or sys.stdin.buffer)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = transport.MessageReader(source, self.protocol._send_data)
        try:
            asyncio.run(transport.serve(stop_event, reader, self.handle_body))
        except BrokenPipeError:
            log.error("the client closed the connection; the server stops")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            source.close()
            self.shutdown()  # type: ignore[no-untyped-call]

    def start_tcp(self, host: str, port: int) -> None:
        """Serve one client at a time on ``host:port`` (the same reader as on stdio)."""
        self._stop_event = stop_event = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            messages = transport.MessageReader(
                transport.StreamSource(reader), self.protocol._send_data
            )
            await transport.serve(stop_event, messages, self.handle_body)
            self.shutdown()  # type: ignore[no-untyped-call]

        async def listen() -> None:
            self._server = await asyncio.start_server(
                connection, host, port, limit=transport.MAX_LINE_BYTES
            )
            async with self._server:
                await self._server.serve_forever()

        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(listen())

    # --- shared mode: one client after another (see ``shared``) --------------------------

    @property
    def has_client(self) -> bool:
        """Whether a client is connected and initialized: pygls makes the workspace at
        ``initialize``, and a shared server drops it when the client leaves
        (:meth:`forget_client`), so that nothing asks a departed client's documents."""
        return self.protocol._workspace is not None

    def attach_client(self, writer: Any) -> None:
        """A new client's connection: everything is sent to it from now on."""
        self.clients += 1
        self.protocol.set_writer(writer)
        timing(f"client {self.clients} connected")

    async def forget_client(self) -> None:
        """The client left (``exit``, or its connection dropped, as on a window reload):
        forget everything that was its own and keep what is the workspace's.

        Forgotten: its open documents (the index reads those files from disk again, as
        after ``didClose``), its capabilities and settings, the results it was sent and
        their ids, the requests in flight both ways (a held workspace pull among them),
        progress tokens, the checks scheduled for it. Kept: the index, the summaries,
        the closed files' results and the cache, which the next client's answers are
        made of (:meth:`revalidate` first reads again what changed on disk meanwhile).
        """
        self.protocol.set_writer(_Nowhere())
        self.protocol._shutdown = False  # pygls refuses every message after ``shutdown``
        for future in self.protocol._request_futures.values():
            future.cancel()
        self.protocol._request_futures.clear()
        self.protocol._result_types.clear()
        self.protocol.progress = Progress(self.protocol)
        self.protocol.trace = types.TraceValue.Off
        for task in [*self.pending.values(), *self.running.values(), self.workspace_task]:
            if task is not None:
                task.cancel()
        self.pending.clear()
        self.running.clear()
        opened: list[tuple[Path, bool]] = []
        if self.has_client:
            opened = [
                (Path(p), self.disk_path(uri) is not None)
                for uri in self.open_uris()
                if (p := to_fs_path(uri))
            ]
        self.protocol._workspace = None
        loop = asyncio.get_running_loop()
        for path, from_disk in opened:
            self.project.close(path)
            await loop.run_in_executor(self.analysis_thread, self.buffers.close, path, from_disk)
        self.results.clear()
        self.pushed.clear()
        self.last_change.clear()
        self.logged_errors.clear()
        self.shown_problems.clear()
        self.pull_mode = self.refresh_support = self.progress_support = False
        self.watching = False
        self.settings = Settings()
        self.last_closed_answer = None
        self.closed_may_change()
        self.checked_once = False
        self.left_configs = await loop.run_in_executor(
            self.analysis_thread, self.project.config_stamps
        )
        log.info(
            "client %d left: %d documents closed, the index of %d files kept",
            self.clients,
            len(opened),
            len(self.project.summaries),
        )

    async def revalidate(self) -> None:
        """A client connected to a server that served another before it: what changed
        on disk while no client was there to tell is read again before any answer
        (configuration files: everything is indexed again; Python files: each one whose
        ``stat`` differs from the one taken as it was read; files created meanwhile
        are found by a walk once the first documents are answered). One job on the
        checking thread, submitted before this handler first yields: the first
        document's check, queued behind it, sees the index as the disk is."""
        loop = asyncio.get_running_loop()
        configs_changed, stale = await loop.run_in_executor(self.analysis_thread, self._reread)
        if configs_changed:
            log.info("configuration files changed while no client was connected")
            await self.reload_configs()
            return
        log.info(
            "client %d: %d files changed on disk meanwhile, read again; the index of %d files kept",
            self.clients,
            stale,
            len(self.project.summaries),
        )
        self.unseen_task = asyncio.ensure_future(self._find_unseen())

    def _reread(self) -> tuple[bool, int]:
        """On the checking thread: whether a configuration file changed since the last
        client left (then nothing else is read: everything is indexed again), else how
        many files were read again."""
        if self.left_configs is not None and self.project.configs_changed(self.left_configs):
            return True, 0
        stale = self.project.stale_files()
        for path in stale:
            self.buffers.update_from_disk(path)
        return False, len(stale)

    async def _find_unseen(self) -> None:
        """Files created while no client was connected join the index, after the client's
        first document has been answered (or 2 s): the walk (50-300 ms for the Ivy
        snapshot) is one job on the checking thread, and a window reload's first check
        queued behind it waited 0.26 s in ``make test-vscode``."""
        for _ in range(40):
            if self.checked_once:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        await self.documents_first()
        loop = asyncio.get_running_loop()
        unseen = await loop.run_in_executor(self.analysis_thread, self.project.unseen_files)
        for path in unseen:
            await loop.run_in_executor(self.analysis_thread, self.buffers.update_from_disk, path)
        if unseen:
            log.info("%d files created while no client was connected: indexed", len(unseen))
            self.recheck_others()
        if self.project.scanning:  # a project made meanwhile under a workspace folder
            await self.ensure_scan()

    def handle_body(self, body: bytes) -> None:
        """One message's body: parsed and dispatched; a body that is no JSON-RPC message
        gets an error response (see :meth:`report_server_error`)."""
        try:
            message = transport.parse(body, self.protocol.structure_message)
            self.protocol.handle_message(message)
        except Exception as error:  # bad input must not stop the server
            log.debug("unusable message", exc_info=True)
            self._report_server_error(error, JsonRpcException)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A message that is not even JSON gets JSON-RPC's parse error (id null)."""
        if isinstance(error, ValueError) and not isinstance(error, JsonRpcException):
            self.protocol._send_data(
                {
                    "jsonrpc": "2.0",
                    "id": None,
                    "error": {"code": -32700, "message": f"Parse error: {error}"},
                }
            )
        log.error("%s", error)

    # --- helpers ------------------------------------------------------------------------

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """A line for the editor's log (``window/logMessage``): warnings and errors always,
        what the server does (``Log``, ``Info``) only at ``--log-level info`` or ``debug``."""
        level = _LOG_LEVELS.get(kind, logging.INFO)
        if not log.isEnabledFor(level):
            return
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def folders(self) -> list[Path]:
        if not self.has_client:
            return []  # no client (a shared server between two)
        found = []
        for folder in self.workspace.folders.values():
            path = to_fs_path(folder.uri)
            if path:
                found.append(Path(path))
        if not found and self.workspace.root_path:
            found.append(Path(self.workspace.root_path))
        return found

    def open_uris(self) -> list[str]:
        """The open documents, each under the URI string its client sent (the one its
        diagnostics must be published under); none while no client is connected (a
        shared server between two: its scan goes on meanwhile)."""
        if not self.has_client:
            return []
        return [document.uri for document in self.workspace.text_documents.values()]

    def is_open(self, uri: str) -> bool:
        """Whether ``uri`` names an open document, however it is percent-encoded."""
        if not self.has_client:
            return False
        return document_key(uri) in self.workspace.text_documents

    def forget_pushed(self, uri: str) -> None:
        """The closed-file results sent for the document ``uri`` names are no longer
        tracked (they were sent under the server's URI, which may differ from the one the
        client opened the document under only in what is percent-encoded)."""
        for pushed in [p for p in self.pushed if document_key(p) == document_key(uri)]:
            del self.pushed[pushed]

    def disk_path(self, uri: str) -> Path | None:
        """The file ``uri`` names, if the server may read it from disk: a local ``file:``
        URI inside a workspace folder (symbolic links resolved). Anything else (another
        scheme, a remote host, ``/etc/passwd``, a link out of the folder) is not read."""
        parsed = urlparse(uri)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            return None
        path_text = to_fs_path(uri)
        if not path_text:
            return None
        path = Path(path_text)
        try:
            real = path.resolve()
            folders = [folder.resolve() for folder in self.folders()]
        except (OSError, RuntimeError):
            return None
        if any(real.is_relative_to(folder) for folder in folders):
            return path
        return None

    def document(self, uri: str) -> TextDocument:
        """The document the client opened; for a request about a document it did not open,
        the file on disk, if :meth:`disk_path` allows reading it and it exists. Otherwise
        an invalid-params error that says why (and no traceback)."""
        opened: TextDocument | None = self.workspace.text_documents.get(document_key(uri))
        if opened is not None:
            return opened
        path = self.disk_path(uri)
        if path is None:
            raise JsonRpcInvalidParams(
                f"{uri} is not open in the editor, and ivycheck reads from disk only "
                "file: URIs inside the workspace folders"
            )
        document = self.workspace.get_text_document(uri)
        try:
            document.source  # noqa: B018 - read now, so that a missing file is reported here
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            raise JsonRpcInvalidParams(f"cannot read {path}: {reason}") from None
        return document

    async def check(self, uri: str) -> list[Diagnostic] | None:
        """Check the current text of ``uri``; ``None`` if the text changed meanwhile."""
        document = self.document(uri)
        path_text = to_fs_path(uri)
        if path_text is None:
            return []
        version = document.version
        try:
            text = document.source
        except (OSError, UnicodeDecodeError) as err:
            raise JsonRpcInvalidParams(f"cannot read {path_text}: {err}") from None
        if not self.settings.enable:
            return []
        path = Path(path_text)
        loop = asyncio.get_running_loop()
        self.answering += 1
        if not self.checked_once:
            timing("asked to check its first document")
        try:
            outcome = await loop.run_in_executor(
                self.analysis_thread,
                self.buffers.check,
                path,
                text,
                functools.partial(self.is_current, uri, version),
            )
        finally:
            # After the answer built from it has gone out (a push is sent in this same
            # turn of the loop, a pull's response by the callback its task schedules).
            loop.call_later(0.001, self._answered)
        if outcome.others_changed:
            # Also after the answer: the document's own findings go out first.
            loop.call_later(0.001, self.recheck_others, uri)
        found = outcome.found
        if found is None or self.document(uri).version != version:
            return None
        kept = [d for d in found if d.code != INTERNAL_ERROR]
        if not self.checked_once:
            self.checked_once = True
            timing(f"checked its first document ({len(kept)} findings)")
        self.log_new_errors(uri, path, [d.message for d in found if d.code == INTERNAL_ERROR])
        self.results[uri] = (version, kept)
        self.report_config_problems()
        if self.project.scanning:  # the document's project root was new
            self.ensure_scan()
        return kept

    def is_current(self, uri: str, version: int | None) -> bool:
        """Whether ``version`` is still the text of ``uri`` (always, for a file the
        client has not opened): a check of a replaced text is work for nothing. Read on
        the checking thread, while the event loop may apply a newer change."""
        opened = self.workspace.text_documents.get(document_key(uri))
        return opened is None or opened.version == version

    def _answered(self) -> None:
        self.answering -= 1

    async def documents_first(self) -> None:
        """Wait until no document's check or answer is under way (push: none scheduled
        or running either): background work goes between them, never ahead."""
        while self.answering or self.pending or self.running:
            await asyncio.sleep(0.005)

    def log_new_errors(self, uri: str, path: Path, messages: list[str]) -> None:
        """Log a rule's crash once while it lasts, not on every re-check of the document
        (each keystroke, and every re-check after a workspace change, would repeat it)."""
        before = self.logged_errors.get(uri, set())
        for message in messages:
            if message not in before:
                self.log(f"{path}: {message}", types.MessageType.Error)
        self.logged_errors[uri] = set(messages)

    def report_config_problems(self) -> None:
        """Tell the user about a configuration file that cannot be used, once while it
        lasts: a message, and a diagnostic on the file (pushed whatever the client's
        diagnostic mode: a client pulls only for the documents this server handles).
        Take the diagnostic back once the file loads again."""
        current = dict(self.project.config_problems)
        for file, problem in current.items():
            if self.shown_problems.get(file) == problem:
                continue
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Error, message=problem.user_message)
            )
            line = problem_line(file, problem.message)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=file_uri(file),
                    diagnostics=[
                        types.Diagnostic(
                            range=types.Range(
                                start=types.Position(line=line, character=0),
                                end=types.Position(line=line + 1, character=0),
                            ),
                            message=problem.message,
                            severity=types.DiagnosticSeverity.Error,
                            source="ivycheck",
                        )
                    ],
                )
            )
        for file in set(self.shown_problems) - set(current):
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=file_uri(file), diagnostics=[])
            )
        self.shown_problems = current

    async def reload_configs(self) -> None:
        """Configuration files or settings changed: load them again now (not only when a
        document is next checked), so that a fixed file loses its diagnostic at once; and
        index the projects again under the new configuration (which file is the functional
        API or a backend, and every summary's relative path, come from it). Open and
        closed files' diagnostics follow once the scan is complete."""
        self.project.forget_configs()
        paths = [*self.folders()]
        paths += [Path(p) for uri in self.open_uris() if (p := to_fs_path(uri))]
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.analysis_thread, self.project.check_configs, paths)
        self.report_config_problems()
        problems = await loop.run_in_executor(self.analysis_thread, self.project.begin_scan, paths)
        for problem in problems:
            self.log(problem, types.MessageType.Warning)
        await self.ensure_scan()

    def ensure_scan(self) -> asyncio.Task[None]:
        """Summarize the files of new project scopes, one step at a time on the checking
        thread (a document opened meanwhile is checked, with the single-file rules,
        after the current step); then re-check what the complete index changes."""
        if self.scan_task is None or self.scan_task.done():
            self.scan_task = asyncio.ensure_future(self._scan())
        return self.scan_task

    async def _scan(self) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        progress = IndexingProgress(self) if self.progress_support else None
        read_before = self.project.files_read
        try:
            while True:
                await self.documents_first()
                done = await loop.run_in_executor(
                    self.analysis_thread, self.project.scan_step, SCAN_STEP_SECONDS
                )
                self.report_config_problems()  # a broken file met while finding the files
                if done:
                    break
                if self.progress_support and (
                    progress is None or progress.progress is not self.work_done_progress
                ):  # a shared server's next client: a token of its own
                    if progress is not None:
                        progress.end()
                    progress = IndexingProgress(self)
                if progress is not None:
                    progress.report(*self.project.scan_progress())
        finally:
            if progress is not None:
                progress.end()
        for problem in self.project.begin_scan(()):
            self.log(problem, types.MessageType.Warning)
        self.collector.after_batch()
        generated_code.save()  # what the start compiled, for the next start
        # At --log-level info: the moment the index is complete (benchmarks wait for it);
        # not said when no file had to be read (a shared server's next client).
        if self.project.files_read != read_before:
            self.log(
                f"index built: {len(self.project.summaries)} files in "
                f"{loop.time() - started:.1f} s",
                types.MessageType.Info,
            )
        self.recheck_others()

    async def closed_reports(self) -> list[tuple[str, FileResult]]:
        """The result of every indexed file that is not open, as on disk, in 20 ms steps
        on the checking thread (requests get in between, open documents' checks first). A file is checked again
        only when its text, its configuration or an index answer it used has changed."""
        opened = [Path(p) for uri in self.open_uris() if (p := to_fs_path(uri))]
        loop = asyncio.get_running_loop()
        reports = []
        files = self.project.closed_files(opened, self.folders())
        before = self.closed.checked
        pending = files
        while pending:
            await self.documents_first()
            done, pending = await loop.run_in_executor(
                self.analysis_thread, self.closed.results, pending, CLOSED_STEP_SECONDS
            )
            reports += [(file_uri(path), result) for path, result in done]
        await loop.run_in_executor(self.analysis_thread, self.closed.keep_only, files)
        checked = self.closed.checked - before
        if checked > 50:
            self.collector.after_batch()
        if checked:  # VS Code pulls every 2 s: an unchanged workspace logs nothing
            self.log(f"workspace diagnostics: {checked} of {len(files)} files checked")
        return reports

    async def push_workspace(self) -> None:
        """Workspace diagnostics for a client that cannot pull them: published for each
        closed file whose result differs from what it was last sent (with
        ``diagnosticsScope: openFiles``, none: those sent before are taken back)."""
        reports = await self.closed_reports() if self.settings.workspace_wide else []
        current = set()
        for uri, result in reports:
            if self.is_open(uri):
                continue
            current.add(uri)
            if self.pushed.get(uri) != result.result_id:
                self.pushed[uri] = result.result_id
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=result.items)
                )
        for uri in set(self.pushed) - current:  # deleted, or no longer indexed
            if not self.is_open(uri):
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
                )
            del self.pushed[uri]
        self.log(f"workspace diagnostics up to date: {len(current)} closed files")

    def schedule_workspace(self) -> None:
        """Publish closed files' changed results soon (push mode), once for a burst."""
        if self.pull_mode:
            return
        if self.workspace_task is not None and not self.workspace_task.done():
            self.workspace_task.cancel()

        async def run() -> None:
            await asyncio.sleep(WORKSPACE_DEBOUNCE_SECONDS)
            if self.project.scanning:
                return  # the scan's end schedules this again
            try:
                await self.push_workspace()
            except Exception as err:  # noqa: BLE001 - one file must not stop the server
                self.log(
                    f"workspace diagnostics failed: {type(err).__name__}: {err}",
                    types.MessageType.Error,
                )

        self.workspace_task = asyncio.ensure_future(run())

    def count_check(self) -> None:
        """A request handler ran a check (pull diagnostics, code actions: editors ask for
        those on every cursor move): count it for the idle collector once the response
        has gone out, so that a session without edits still gets its garbage collected."""
        loop = asyncio.get_running_loop()
        self.collector.activity(loop)
        loop.call_later(0.001, self.collector.checked)

    def idle_answer(self, epoch: int, previous: dict[str, str]) -> dict[str, str] | None:
        """The result ids of the last workspace pull if the client holds them and nothing
        that may change a closed file happened since (``None`` otherwise). The client's
        other ids are those of open documents (VS Code sends every id it has)."""
        if self.last_closed_answer is None or self.last_closed_answer[0] != epoch:
            return None
        if not (self.watching or not self.settings.workspace_wide):
            return None  # without file events, only a look at the files tells
        answered = self.last_closed_answer[1]
        if any(previous.get(uri) != result_id for uri, result_id in answered.items()):
            return None
        if any(uri not in answered and not self.is_open(uri) for uri in previous):
            return None
        return answered

    def closed_may_change(self) -> None:
        """Closed files' results may differ now: a held workspace pull looks again."""
        self.closed_epoch += 1
        self.closed_changed.set()
        self.closed_changed = asyncio.Event()

    async def whole(self, uri: str, *, wait: bool = False) -> list[Diagnostic]:
        """The document's findings, with its cross-file rules: for a client that pulls and
        cannot be asked to pull again (no ``workspace/diagnostic/refresh``), or when
        ``wait`` (a request about a document that is not open: nothing tells the client
        later), the answer waits until the document's index is complete, never a part of
        the findings the client would keep. A client that can be asked gets the
        single-file findings at once and a refresh when the index is complete."""
        path_text = to_fs_path(uri)
        path = Path(path_text) if path_text else None
        # Asked before the check: the scan may complete while it runs.
        told_later = self.refresh_support or not self.pull_mode  # a refresh, or a push
        indexed = path is None or (told_later and not wait) or self.project.indexed(path)
        found = await self.check(uri)
        while found is None:  # the text changed while checking: check the newer text
            found = await self.check(uri)
        if indexed or path is None:
            return found
        try:
            await self.ensure_scan()
        except Exception as err:  # noqa: BLE001 - the single-file findings still stand
            self.log(f"indexing failed: {type(err).__name__}: {err}", types.MessageType.Error)
        return await self.whole(uri, wait=wait) if self.project.indexed(path) else found

    async def publish(self, uri: str) -> None:
        if not self.is_open(uri):
            return  # closed meanwhile, or a change for a document never opened
        found = await self.check(uri)
        if found is None:
            return
        if self.pull_mode:
            return
        lines = split_lines(self.workspace.get_text_document(uri).source)
        params: dict[str, Any] = {"uri": uri, "diagnostics": [to_lsp_json(d, lines) for d in found]}
        version = self.results.get(uri, (None, []))[0]
        if version is not None:
            params["version"] = version
        # The JSON lsprotocol would make of ``PublishDiagnosticsParams``, made directly:
        # this goes out after every keystroke (see ``convert.to_lsp_json``).
        self.protocol._send_data(
            {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params}
        )
        self.collector.checked()  # after sending: a collection here delays no result

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        """Check ``uri`` after ``delay`` and once the document's running check (if any)
        has ended, replacing any run not yet started for it: one run at a time per
        document, and the changes made during a run are checked together by the next."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

        async def run() -> None:
            if delay:
                await asyncio.sleep(delay)
            while (running := self.running.get(uri)) is not None:
                # One run at a time per document; a newer change meanwhile cancels this
                # run while it waits here (a superseded run's result is dropped anyway).
                await asyncio.wait([running])
            me = asyncio.current_task()
            if me is None or self.pending.get(uri) is not me:
                return  # closed meanwhile
            del self.pending[uri]
            self.running[uri] = me
            try:
                await self.publish(uri)
            except Exception as err:  # noqa: BLE001 - one document must not stop the server
                self.log(
                    f"checking {uri} failed: {type(err).__name__}: {err}", types.MessageType.Error
                )
            finally:
                if self.running.get(uri) is me:
                    del self.running[uri]

        self.pending[uri] = asyncio.ensure_future(run())

    def recheck_others(self, changed_uri: str | None = None) -> None:
        """Other files' diagnostics may have changed: ask a pulling client to pull again
        (if it can be asked), or re-check the open documents and re-publish the closed
        files whose results changed. With no client connected (a shared server between
        two), nothing: what the next client is sent is checked then, and results sent
        to nobody would count as sent (``pushed``)."""
        self.closed_may_change()
        if not self.has_client:
            return
        if self.pull_mode:
            if self.refresh_support:
                self.workspace_diagnostic_refresh(None)
            return
        # After an edit, the other documents wait for the typing to pause, as the closed
        # files do: re-checked at once, each would hold the checking thread while the
        # next keystroke waits. After the index is built, at once: their cross-file
        # findings are due.
        delay = WORKSPACE_DEBOUNCE_SECONDS if changed_uri is not None else 0.0
        for uri in self.open_uris():
            if uri != changed_uri:
                self.schedule(uri, delay=delay)
        self.schedule_workspace()

    async def refresh_settings(self) -> None:
        try:
            answer = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="ivycheck")])
            )
        except Exception as err:  # noqa: BLE001 - clients without configuration support
            self.log(f"workspace/configuration unavailable: {err}")
            return
        await self.apply_settings(Settings.from_client(answer[0] if answer else None))

    async def apply_settings(self, settings: Settings) -> None:
        """New client settings: re-index and re-check under them, unless they are the
        ones in use (the answer at start-up usually is: the scan is not begun again)."""
        if settings == self.settings and settings.overrides == self.project.overrides:
            return
        previous, self.settings = self.settings, settings
        if previous.enable == settings.enable and settings.overrides == self.project.overrides:
            self.closed_may_change()  # the scope alone: nothing to index again
            if self.pull_mode and self.refresh_support:
                self.workspace_diagnostic_refresh(None)
            self.schedule_workspace()
            return
        self.project.set_overrides(settings.overrides)
        await self.reload_configs()


class _Nowhere:
    """The writer while no client is connected (shared mode): what the server would
    send (a scan's progress, re-checked results) goes to nobody."""

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


server = IvycheckServer()


@server.feature(types.INITIALIZE)
def initialize(ls: IvycheckServer, params: types.InitializeParams) -> None:
    text_capabilities = params.capabilities.text_document
    ls.pull_mode = bool(text_capabilities and text_capabilities.diagnostic)
    workspace = params.capabilities.workspace
    ls.refresh_support = bool(
        workspace and workspace.diagnostics and workspace.diagnostics.refresh_support
    )
    window = params.capabilities.window
    ls.progress_support = bool(window and window.work_done_progress)
    options = params.initialization_options
    if isinstance(options, dict) and "settings" in options:
        ls.settings = Settings.from_client(options["settings"])
        if ls.clients <= 1:  # nothing indexed yet (see ``initialized`` for the next ones)
            ls.project.set_overrides(ls.settings.overrides)
    timing("answers initialize")
    asyncio.get_running_loop().call_soon(ls.warm_up)  # after the answer has gone out


@server.feature(types.INITIALIZED)
async def initialized(ls: IvycheckServer, params: types.InitializedParams) -> None:
    capabilities = ls.client_capabilities
    if ls.shared and ls.clients > 1:
        await ls.revalidate()
    if capabilities.workspace and capabilities.workspace.configuration:
        await ls.refresh_settings()
    if ls.settings.overrides != ls.project.overrides:  # a shared server's next client
        await ls.apply_settings(ls.settings)
    watched = capabilities.workspace and capabilities.workspace.did_change_watched_files
    if watched and watched.dynamic_registration:
        await _register_watchers(ls)
    loop = asyncio.get_running_loop()
    problems = await loop.run_in_executor(ls.analysis_thread, ls.project.begin_scan, ls.folders())
    for problem in problems:
        ls.log(problem, types.MessageType.Warning)
    ls.report_config_problems()
    # Shielded: a client that leaves cancels its handlers, and this one's cancellation
    # would cancel the scan, which is the workspace's (a shared server's next client
    # finds it done, or further on).
    await asyncio.shield(ls.ensure_scan())
    # The workspace's summaries live as long as the server: keep them out of the cyclic
    # collector's full passes, which otherwise stall an edit every few keystrokes. A
    # shared server's next client: what the last one left is garbage, collected first
    # (frozen, it would stay for the server's life, one client's worth per reload).
    if ls.clients > 1:
        gc.collect()
    gc.freeze()
    ls.collector.start()


async def _register_watchers(ls: IvycheckServer) -> None:
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="ivycheck-watched-files",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(
                            watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHERS]
                        ),
                    )
                ]
            )
        )
        ls.watching = True
    except Exception as err:  # noqa: BLE001 - a client that cannot register still works
        ls.log(
            f"cannot watch files ({err}); pyproject.toml changes need a restart",
            types.MessageType.Warning,
        )


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: IvycheckServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.closed_may_change()  # no longer a closed file
    if not ls.pull_mode:
        ls.forget_pushed(params.text_document.uri)  # the buffer's results replace them
        ls.schedule(params.text_document.uri, delay=0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: IvycheckServer, params: types.DidChangeTextDocumentParams) -> None:
    loop = asyncio.get_running_loop()
    ls.collector.activity(loop)
    uri = params.text_document.uri
    now = loop.time()
    burst = now - ls.last_change.get(uri, now - DEBOUNCE_SECONDS) < DEBOUNCE_SECONDS
    ls.last_change[uri] = now
    if not ls.pull_mode:
        ls.schedule(uri, delay=DEBOUNCE_SECONDS if burst else 0.0)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: IvycheckServer, params: types.DidSaveTextDocumentParams) -> None:
    if not ls.pull_mode:
        ls.schedule(params.text_document.uri, delay=0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def did_close(ls: IvycheckServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.closed_may_change()  # a closed file now
    pending = ls.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    ls.results.pop(uri, None)
    ls.logged_errors.pop(uri, None)
    ls.last_change.pop(uri, None)
    if not ls.pull_mode:
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )
    path = to_fs_path(uri)
    if path is None:
        return
    ls.project.close(Path(path))
    # The file's summary goes back to what is on disk (if it may be read). Queued on
    # the checking thread before this handler yields: a check of the document opened
    # again right after comes later in that queue, so its buffer's summary wins.
    from_disk = ls.disk_path(uri) is not None
    loop = asyncio.get_running_loop()
    if await loop.run_in_executor(ls.analysis_thread, ls.buffers.close, Path(path), from_disk):
        ls.recheck_others(uri)
    if not ls.pull_mode:
        ls.schedule_workspace()  # its results as on disk, if it is a workspace file


@server.feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(
        identifier="ivycheck", inter_file_dependencies=True, workspace_diagnostics=True
    ),
)
async def diagnostic(
    ls: IvycheckServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    found = await ls.whole(uri)
    lines = split_lines(ls.document(uri).source)
    ls.count_check()
    items = [to_lsp_diagnostic(d, lines) for d in found]
    result_id = report_id(items)
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)


@server.feature(types.WORKSPACE_DIAGNOSTIC)
async def workspace_diagnostic(
    ls: IvycheckServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """Findings of the files that are not open (open ones are pulled per document): a
    file whose result id the client sent back and that did not change is "unchanged".

    An idle workspace costs nothing. The ids the client sends back are those of the
    last answer and nothing happened since (:meth:`IvycheckServer.closed_may_change`;
    with the client watching files, nothing changes on disk unseen): every file is
    unchanged, answered without looking at one. A client that passes a partial-result
    token (VS Code; it pulls again 2 s after each answer) and watches files has its pull
    held instead until something may have changed, the long poll LSP provides for; so an
    idle editor sends no request at all."""
    previous = {entry.uri: entry.value for entry in params.previous_result_ids}
    # Held only while every change is announced: without file events (a client that does
    # not watch files for us) only another look at the files tells, so each pull answers.
    hold = params.partial_result_token is not None and (
        ls.watching or not ls.settings.workspace_wide
    )
    while True:
        epoch = ls.closed_epoch
        answered = ls.idle_answer(epoch, previous)
        if answered is not None and hold:
            await ls.closed_changed.wait()
            continue
        if answered is not None:
            return types.WorkspaceDiagnosticReport(
                items=[
                    types.WorkspaceUnchangedDocumentDiagnosticReport(
                        uri=uri, result_id=result_id, version=None
                    )
                    for uri, result_id in answered.items()
                ]
            )
        items = await _workspace_items(ls, previous)
        ls.last_closed_answer = (epoch, {i.uri: i.result_id for i in items if i.result_id})
        news = any(isinstance(i, types.WorkspaceFullDocumentDiagnosticReport) for i in items)
        if news or not hold:
            return types.WorkspaceDiagnosticReport(items=items)
        # Nothing new for a client that lets us wait: the long poll goes on (at once
        # if something changed meanwhile, the epoch tells).


async def _workspace_items(
    ls: IvycheckServer, previous: dict[str, str]
) -> list[types.WorkspaceDocumentDiagnosticReport]:
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    reported = set()
    reports = await ls.closed_reports() if ls.settings.workspace_wide else []
    for uri, result in reports:
        reported.add(uri)
        if previous.get(uri) == result.result_id:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, result_id=result.result_id, version=None
                )
            )
        else:
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, items=result.items, version=None, result_id=result.result_id
                )
            )
    for uri in previous.keys() - reported:  # deleted, no longer indexed, out of scope
        if ls.is_open(uri):
            continue
        items.append(types.WorkspaceFullDocumentDiagnosticReport(uri=uri, items=[], version=None))
    return items


async def _current(ls: IvycheckServer, uri: str) -> tuple[list[Diagnostic], str]:
    """The diagnostics of the document's current version (checking if not yet done)."""
    document = ls.document(uri)
    cached = ls.results.get(uri)
    if cached is None or cached[0] != document.version:
        opened = ls.is_open(uri)
        found = await ls.whole(uri, wait=not opened)
        return found, ls.document(uri).source
    return cached[1], document.source


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND],
        resolve_provider=False,
    ),
)
async def code_action(
    ls: IvycheckServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    diagnostics, text = await _current(ls, uri)
    path = to_fs_path(uri)
    if path is not None and diagnostics:
        loop = asyncio.get_running_loop()
        diagnostics = await loop.run_in_executor(
            ls.analysis_thread, functools.partial(ls.project.check, Path(path), text, fixes=True)
        )
        diagnostics = [d for d in diagnostics if d.code != INTERNAL_ERROR]
        ls.count_check()
    lines = split_lines(text)
    wanted = params.context.only
    result: list[types.CodeAction] = []
    if not wanted or types.CodeActionKind.QuickFix in wanted:
        asked = actions.Wanted.of(params)
        result += actions.quick_fixes(uri, diagnostics, lines, asked)
        result += actions.suppressions(uri, diagnostics, lines, asked)
    fix_all_wanted = not wanted or any(actions.FIX_ALL_KIND.startswith(k) for k in wanted)
    if fix_all_wanted and path is not None and any(d.fix is not None for d in diagnostics):
        loop = asyncio.get_running_loop()
        fixed = await loop.run_in_executor(ls.analysis_thread, ls.project.fix_all, Path(path), text)
        action = actions.fix_all(uri, text, fixed, lines)
        if action is not None:
            result.append(action)
    return result


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def on_hover(ls: IvycheckServer, params: types.HoverParams) -> types.Hover | None:
    diagnostics, text = await _current(ls, params.text_document.uri)
    lines = split_lines(text)
    return hover.hover_for(hover.codes_at(diagnostics, lines, params.position))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(
    ls: IvycheckServer, params: types.DidChangeWatchedFilesParams
) -> None:
    config_changed = False
    index_changed = False
    closed_changed = False
    loop = asyncio.get_running_loop()
    ls.closed_may_change()
    for change in params.changes:
        path = to_fs_path(change.uri)
        if path is None:
            continue
        if Path(path).name in CONFIG_FILES:
            config_changed = True
        elif path.endswith(".py") and not ls.is_open(change.uri) and ls.disk_path(change.uri):
            changed = await loop.run_in_executor(
                ls.analysis_thread, ls.buffers.update_from_disk, Path(path)
            )
            index_changed = index_changed or changed
            closed_changed = True
    if config_changed:
        await ls.reload_configs()  # re-checks everything once the new index is complete
    elif index_changed:
        ls.recheck_others()
    elif closed_changed:  # only those files' own results may differ
        if ls.pull_mode and ls.refresh_support:
            ls.workspace_diagnostic_refresh(None)
        ls.schedule_workspace()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: IvycheckServer, params: types.DidChangeConfigurationParams
) -> None:
    settings: Any = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("ivycheck"), dict):
        await ls.apply_settings(Settings.from_client(settings["ivycheck"]))
    elif ls.client_capabilities.workspace and ls.client_capabilities.workspace.configuration:
        await ls.refresh_settings()


@server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
async def did_change_folders(
    ls: IvycheckServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    added = [Path(p) for f in params.event.added if (p := to_fs_path(f.uri))]
    loop = asyncio.get_running_loop()
    problems = await loop.run_in_executor(ls.analysis_thread, ls.project.begin_scan, added)
    for problem in problems:
        ls.log(problem, types.MessageType.Warning)
    await ls.ensure_scan()


__all__ = ["IvycheckServer", "server"]
