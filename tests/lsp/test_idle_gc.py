"""The language server's collector: cycles are still freed, only not during a check."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from ivycheck.lsp import idle_gc
from ivycheck.lsp.idle_gc import IdleCollector
from ivycheck.lsp.server import IvycheckServer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    """A reference cycle only the cyclic collector can free."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


@pytest.fixture
def collector() -> Iterator[IdleCollector]:
    gc.collect()
    collector = IdleCollector()
    collector.start()
    try:
        yield collector
    finally:
        collector.stop()
    assert gc.isenabled()


def test_automatic_collection_is_off_while_serving(collector: IdleCollector) -> None:
    assert not gc.isenabled()
    garbage = _cycle()
    allocated = [{} for _ in range(200_000)]  # far past every generation's threshold
    del allocated
    assert garbage() is not None


def test_cycles_are_freed_after_enough_checks(collector: IdleCollector) -> None:
    garbage = _cycle()
    for _ in range(idle_gc.MAX_CHECKS_BETWEEN - 1):
        collector.checked()
    assert garbage() is not None and collector.collections == 0
    collector.checked()
    assert garbage() is None and collector.collections == 1


def test_cycles_are_freed_once_the_client_is_quiet(
    collector: IdleCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Keystrokes 20 ms apart against a 0.4 s quiet period: a loaded test machine can delay
    # a wake-up by tens of milliseconds, not by the whole period.
    monkeypatch.setattr(idle_gc, "IDLE_SECONDS", 0.4)

    async def typing_then_pausing() -> weakref.ref[Node]:
        loop = asyncio.get_running_loop()
        garbage = _cycle()
        collector.checked()
        for _ in range(30):  # keystrokes keep postponing it, for longer than the period
            collector.activity(loop)
            await asyncio.sleep(0.02)
            assert garbage() is not None
        deadline = loop.time() + 10
        while garbage() is not None and loop.time() < deadline:
            await asyncio.sleep(0.05)  # the quiet period ends: wait for the collection
        return garbage

    garbage = asyncio.run(typing_then_pausing())
    assert garbage() is None and collector.collections == 1


def test_a_quiet_period_without_checks_collects_nothing(
    collector: IdleCollector, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(idle_gc, "IDLE_SECONDS", 0.01)

    async def idle() -> None:
        collector.activity(asyncio.get_running_loop())
        await asyncio.sleep(0.05)

    asyncio.run(idle())
    assert collector.collections == 0


def test_checks_run_by_requests_count_after_the_response(collector: IdleCollector) -> None:
    """Pull diagnostics and code actions (asked on every cursor move) check too: without
    counting them, a session with no edits would never collect."""
    server = IvycheckServer()
    server.collector = collector
    garbage = _cycle()

    async def requests() -> None:
        for _ in range(idle_gc.MAX_CHECKS_BETWEEN):
            server.count_check()
            assert garbage() is not None  # never inside the handler itself
        await asyncio.sleep(0.05)

    asyncio.run(requests())
    assert garbage() is None and collector.collections == 1
