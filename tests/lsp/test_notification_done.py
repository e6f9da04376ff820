"""An ``async`` notification handler's done callback runs pygls's own check once: the
wrapper that takes its future out of pygls's table must not call itself (it did, through
a name it rebinds, until the recursion limit: a ``RecursionError`` per ``didClose``)."""

from __future__ import annotations

import asyncio
from typing import Any

from ivycheck.lsp.server import IvycheckServer


def test_a_done_notification_raises_nothing_in_its_callback() -> None:
    server = IvycheckServer()
    handled: list[object] = []
    errors: list[dict[str, Any]] = []

    @server.feature("ivycheck/testNotification")
    async def notified(ls: IvycheckServer, params: object) -> None:
        await asyncio.sleep(0)
        handled.append(params)

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda loop, context: errors.append(context)
        )
        for number in range(3):
            server.protocol._handle_notification("ivycheck/testNotification", number)
        while len(handled) < 3:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.01)  # the done callbacks run after the handlers end

    asyncio.run(main())
    assert handled == [0, 1, 2]
    assert [context.get("exception") for context in errors] == []
