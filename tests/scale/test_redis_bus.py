"""The Redis event bus with a real redis-server: two buses (two workers) on one
channel; every announced event reaches the other worker's listeners in order, per
match, while several matches interleave, with the event in the message (no read of the
"database"); a Redis outage is reported, nothing announced meanwhile is lost (what was
missed is read once), and both sides recover."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Callable

import pytest
from tests.services import Redis

from spillebord.server.infra.storage.repo import EventRow
from spillebord.server.scale.redis_bus import RedisBus
from spillebord.server.scale.shipped import Shipped

pytestmark = pytest.mark.services


class Store:
    """Stands in for the database a worker reads from (versions per match) and for the
    worker's copies of the matches (``local``), which apply shipped events in order: the
    bus's ``Inbound``."""

    def __init__(self) -> None:
        self.version: dict[str, int] = defaultdict(int)
        self.local: dict[str, int] = defaultdict(int)
        self.texts: dict[str, list[str]] = defaultdict(list)
        self.reads = 0
        self.changed: list[str] = []  # presence changes heard

    def presence(self, match_id: str) -> None:
        self.changed.append(match_id)

    def note(self, topic: str, arg: str) -> None:
        pass

    def direct(self, sender: str, payload: str) -> None:
        pass

    def current(self, match_id: str) -> int | None:
        return None

    def local_version(self, match_id: str) -> int:
        return self.local[match_id]

    async def receive(self, match_id: str, events: list[Shipped], version: int) -> int:
        for item in events:
            if item.event.seq == self.local[match_id] + 1:
                self.local[match_id] = item.event.seq
                self.texts[match_id].append(item.event.text)
        if self.local[match_id] < version:  # a gap: read the "database"
            self.reads += 1
            await asyncio.sleep(0.001)  # a database round trip
            for seq in range(self.local[match_id] + 1, self.version[match_id] + 1):
                self.texts[match_id].append(f"e{seq}")
            self.local[match_id] = self.version[match_id]
        return self.local[match_id]


def event(v: int) -> EventRow:
    return EventRow(v, "act", f"e{v}", 0)


async def until(pred: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def _pair(url: str, channel: str) -> tuple[RedisBus, RedisBus, Store]:
    a, b = RedisBus(url, channel=channel), RedisBus(url, channel=channel)
    store = Store()
    await a.start(Store())
    await b.start(store)
    assert a.stats.connected and b.stats.connected
    return a, b, store


async def test_events_reach_the_other_worker_in_order(redis_server: Redis) -> None:
    a, b, store = await _pair(redis_server.url, "t-order")
    matches = [f"m{i}" for i in range(5)]
    seen: dict[str, list[int]] = defaultdict(list)
    local: dict[str, list[int]] = defaultdict(list)
    for m in matches:
        b.subscribe(m, seen[m].append)
        a.subscribe(m, local[m].append)
    try:
        n = 300
        for v in range(1, n + 1):
            for m in matches:
                store.version[m] = v  # committed before it is announced
                a.announce(m, event(v), None)
            if v % 50 == 0:
                await asyncio.sleep(0.005)
        await until(lambda: all(seen[m] and seen[m][-1] == n for m in matches))
        for m in matches:
            assert local[m] == list(range(1, n + 1))   # own listeners: every version, now
            assert seen[m] == sorted(set(seen[m]))     # the other worker: increasing
            assert seen[m][-1] == n
            assert store.texts[m] == [f"e{v}" for v in range(1, n + 1)]
        assert store.reads == 0, "the events came with the messages"
        assert a.stats.publish_failures == 0 and b.stats.received >= len(matches)
    finally:
        await a.stop()
        await b.stop()


async def test_listener_errors_and_unsubscribe(redis_server: Redis) -> None:
    a, b, store = await _pair(redis_server.url, "t-unsub")
    got: list[int] = []

    def broken(_v: int) -> None:
        raise ValueError("a broken listener must not stop the others")

    b.subscribe("m", broken)
    off = b.subscribe("m", got.append)
    try:
        store.version["m"] = 1
        a.announce("m", event(1), None)
        await until(lambda: got == [1])
        off()
        store.version["m"] = 2
        a.announce("m", event(2), None)
        await asyncio.sleep(0.2)
        assert got == [1]
    finally:
        await a.stop()
        await b.stop()


async def test_redis_outage_is_survived_without_losing_announcements(
        redis_server: Redis) -> None:
    outage = Redis.start()  # its own server: this test stops and restarts it
    try:
        a, b, store = await _pair(outage.url, "t-outage")
        seen: list[int] = []
        b.subscribe("m", seen.append)
        try:
            for v in (1, 2):
                store.version["m"] = v
                a.announce("m", event(v), None)
            await until(lambda: seen[-1:] == [2])
            assert store.reads == 0
            outage.proc.kill()
            outage.proc.wait(5)
            for v in range(3, 8):  # committed while Redis is down
                store.version["m"] = v
                a.announce("m", event(v), None)
            await until(lambda: a.stats.publish_failures > 0 and not b.stats.connected)
            assert seen[-1] == 2
            outage.restart()
            await until(lambda: seen[-1:] == [7], timeout=20)
            assert b.stats.disconnects >= 1 and b.stats.reconnects >= 1
            assert seen == sorted(set(seen))
            assert store.reads >= 1  # what was missed meanwhile is read
            assert store.texts["m"] == [f"e{v}" for v in range(1, 8)]
            store.version["m"] = 8
            a.announce("m", event(8), None)
            await until(lambda: seen[-1:] == [8])
        finally:
            await a.stop()
            await b.stop()
    finally:
        outage.stop()


async def test_presence_is_shared_and_expires(redis_server: Redis) -> None:
    a, b, store = await _pair(redis_server.url, "t-presence")
    changed = store.changed
    try:
        a.set_presence("m", 1, 2)
        await until(lambda: b.present_elsewhere("m", 1))
        assert not b.present_elsewhere("m", 0) and not a.present_elsewhere("m", 1)
        assert "m" in changed
        a.set_presence("m", 1, 0)
        await until(lambda: not b.present_elsewhere("m", 1))
        a.set_presence("m", 0, 1)
        await until(lambda: b.present_elsewhere("m", 0))
        await a.stop()  # a worker that goes silent stops counting after the expiry
        changed.clear()
        await until(lambda: not b.present_elsewhere("m", 0), timeout=15)
        assert changed == ["m"]
    finally:
        await a.stop()
        await b.stop()
