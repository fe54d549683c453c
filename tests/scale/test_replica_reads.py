"""Shared mode ships each event on the bus (issue 26): a worker with a copy of a game
that another worker owns applies the owner's events from the bus messages, with no
database read, and reads the database only to fill a gap — here the events committed
while Redis was away.  The reads are counted by the replica worker itself
(``spillebord_replica_event_reads`` on its /metrics: every read of a game's newest
events), on real PostgreSQL, Redis and two uvicorn workers."""

from __future__ import annotations

from typing import Any

import pytest
from tests.scale.cluster import cluster, events_of, get, metric, opened, post
from tests.server.live import Client
from tests.services import Postgres, Redis, Worker

pytestmark = pytest.mark.services
READS = "spillebord_replica_event_reads_total"


async def _move(owner: Client, replica: Client) -> int:
    """One move from the owner's socket; returns its version once the replica's socket
    (the same seat on the other worker) has it too."""
    assert owner.state is not None
    legal = [a for a in owner.state["legal"] if a != "resign"]
    v = owner.version
    await owner.send("act", action=legal[0])
    await owner.until(lambda _s: owner.version > v, timeout=10)
    await replica.until(lambda _s: replica.version >= v + 1, timeout=20)
    return v + 1


async def _record(w: Worker, mid: str, token: str) -> list[dict[str, Any]]:
    record = (await get(w.http, f"/api/matches/{mid}/record",
                        Authorization=f"Bearer {token}")).json()
    events: list[dict[str, Any]] = record["events"]
    return events


async def _pair(w: Any) -> tuple[str, str, Client, Client]:
    """A solitaire owned by worker 0 (its socket moves first) and the same seat open on
    worker 1 (a second device), both at version 1."""
    made = await post(w[0].http, "/api/matches", {"game": "posthus", "deal": 11})
    mid, token = made["match_id"], made["token"]
    owner = await opened(w[0].ws, mid, token)
    replica = await opened(w[1].ws, mid, token)
    await _move(owner, replica)
    return mid, token, owner, replica


def _same_events(c: Client, record: list[dict[str, Any]]) -> None:
    told = events_of(c)
    assert [e["seq"] for e in told] == list(range(1, len(record) + 1)), "gap or reorder"
    assert [(e["kind"], e["action"]) for e in told] == [
        (e["kind"], e["action"]) for e in record]


async def test_announced_events_are_applied_without_a_database_read(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    """The owner's moves reach the replica's socket with no read there; so do the
    replica socket's own moves, forwarded to the owner (its answer carries the event)."""
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_WARM="0") as w:
        mid, token, owner, replica = await _pair(w)
        reads = await metric(w[1], READS)
        for _ in range(6):
            await _move(owner, replica)
        assert await metric(w[1], READS) == reads, "the replica read events it was sent"
        forwarded = await metric(w[1], "spillebord_events_forwarded_total")
        for _ in range(2):  # from the replica's socket: run on the owner, answered here
            await _move(replica, owner)
        assert await metric(w[1], "spillebord_events_forwarded_total") == forwarded + 2
        assert await metric(w[1], READS) == reads, "a forwarded move was read back"
        assert replica.version == owner.version == 9
        _same_events(replica, await _record(w[0], mid, token))
        shown = ("view", "legal", "to_move", "outcome", "status", "can_undo")
        assert owner.state is not None and replica.state is not None
        assert {k: replica.state[k] for k in shown} == {k: owner.state[k] for k in shown}
        for c in (owner, replica):
            await c.close()


async def test_a_gap_is_filled_by_a_read_then_messages_again(postgres: Postgres,
                                                             pg_url: str) -> None:
    """Redis goes away: the owner plays on (its own socket), the replica hears nothing;
    when Redis is back the replica reads what it missed (a read), and the events after
    that come from the messages again (no more reads)."""
    own = Redis.start()  # its own server: this test stops and restarts it
    try:
        with cluster(postgres, own, pg_url, SPILLEBORD_WARM="0") as w:
            mid, token, owner, replica = await _pair(w)
            await _move(owner, replica)
            before = await metric(w[1], READS)
            own.proc.kill()
            own.proc.wait(5)
            for _ in range(3):  # committed while Redis is away: the replica misses them
                assert owner.state is not None
                v = owner.version
                await owner.send("act", action=next(a for a in owner.state["legal"]
                                                    if a != "resign"))
                await owner.until(lambda _s, v=v: owner.version > v, timeout=10)
            assert replica.version == 2
            own.restart()
            await replica.until(lambda _s: replica.version >= 5, timeout=30)
            filled = await metric(w[1], READS)
            assert filled > before, "the gap was not read from the database"
            for _ in range(4):
                await _move(owner, replica)
            assert await metric(w[1], READS) == filled, "read again after the gap"
            assert replica.version == owner.version == 9
            _same_events(replica, await _record(w[0], mid, token))
            for c in (owner, replica):
                await c.close()
    finally:
        own.stop()
