"""An ``async`` notification handler's future leaves pygls's table once it is done."""

from __future__ import annotations

import asyncio

from ivycheck.lsp.server import IvycheckServer


def test_done_notifications_are_not_kept() -> None:
    server = IvycheckServer()
    handled: list[object] = []

    @server.feature("ivycheck/testNotification")
    async def notified(ls: IvycheckServer, params: object) -> None:
        await asyncio.sleep(0)
        handled.append(params)

    async def main() -> int:
        for number in range(50):
            server.protocol._handle_notification("ivycheck/testNotification", number)
        while len(handled) < 50:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0)  # the done callbacks run one turn after the handlers end
        return len(server.protocol._request_futures)

    assert asyncio.run(main()) == 0
    assert handled == list(range(50))
