"""The index's build as LSP work-done progress: "ivycheck: indexing 312 of 756 files".

While the first index of a project is built, the open documents show only their
single-file findings; without a sign of work going on, an editor's empty Problems view
reads as "no problems". A client that declares ``window.workDoneProgress`` gets a
progress token (``window/workDoneProgress/create``) and ``$/progress`` begin, reports
(at most every :data:`REPORT_SECONDS`) and end: VS Code shows them in its status bar.
The scan never waits for the client to accept the token. A token is the client's that
accepted it: a shared server's scan goes on after that client left
(:mod:`ivycheck.lsp.shared`), and the next client, which never made the token, is sent
nothing of it (its connection has a new ``Progress``: see ``forget_client``).
"""

from __future__ import annotations

import asyncio
import itertools
import time

from lsprotocol import types
from pygls.lsp.server import LanguageServer

REPORT_SECONDS = 0.25
"""The least time between two reports (each is a message the client renders)."""
TITLE = "ivycheck"
_tokens = itertools.count(1)


class IndexingProgress:
    """One build of the index, reported to the client (see the module doc)."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server
        self.progress = server.work_done_progress
        """The client's (replaced as it leaves): the token is reported there only."""
        self.token = f"ivycheck-indexing-{next(_tokens)}"
        self.created = asyncio.ensure_future(self.progress.create_async(self.token))
        self.begun = False
        self.ended = False
        self.last = 0.0
        self.message = "indexing"

    def _accepted(self) -> bool:
        """Whether the client has accepted the token (a refusal is no error of ours), and
        is still connected."""
        if not self.created.done() or self.created.cancelled():
            return False
        if self.server.work_done_progress is not self.progress:
            return False
        return self.created.exception() is None

    def report(self, done: int, total: int) -> None:
        """``done`` of ``total`` files summarized."""
        self.message = f"indexing {done} of {total} files"
        percentage = min(100, done * 100 // total) if total else 0
        if self.ended or not self._accepted():
            return
        now = time.monotonic()
        if not self.begun:
            self.begun, self.last = True, now
            self.progress.begin(
                self.token,
                types.WorkDoneProgressBegin(
                    title=TITLE, message=self.message, percentage=percentage, cancellable=False
                ),
            )
        elif now - self.last >= REPORT_SECONDS:
            self.last = now
            self.progress.report(
                self.token,
                types.WorkDoneProgressReport(message=self.message, percentage=percentage),
            )

    def end(self) -> None:
        """The index is built (or the build stopped): the progress ends, also when the
        client accepts the token only now."""
        if self.ended:
            return
        self.ended = True
        if self._accepted() or not self.created.done():
            self.created.add_done_callback(lambda _: self._finish())

    def _finish(self) -> None:
        if not self._accepted():
            return
        progress = self.progress
        if not self.begun:
            progress.begin(
                self.token, types.WorkDoneProgressBegin(title=TITLE, message=self.message)
            )
        progress.end(self.token, types.WorkDoneProgressEnd(message="index built"))


__all__ = ["IndexingProgress"]
