"""Game ownership leases on a real PostgreSQL (scale/owners.py): one owner at a time; a
released lease is taken at once, an unrenewed one after it expires (counted as taken
over); renewal finds a lease another worker took; and the group writer's fence refuses
the events of a stale owner — before and after a takeover — while the new owner's go
through, so a stalled worker that wakes up cannot write; and a batch waits for a
takeover in flight and is refused if it commits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import create_engine, insert, select
from sqlalchemy.engine import Connection

from spillebord.server.infra.storage import migrate
from spillebord.server.infra.storage.models import actions, matches
from spillebord.server.infra.storage.repo import EventRow, Repository
from spillebord.server.infra.storage.writer import GroupWriter, LeaseLost
from spillebord.server.scale.factory import psycopg_dsn
from spillebord.server.scale.owners import Owners

pytestmark = pytest.mark.services


def _match(engine_url: str, *ids: str) -> None:
    engine = create_engine(engine_url)
    migrate.upgrade(engine)
    with engine.begin() as conn:
        for mid in ids:
            conn.execute(insert(matches).values(
                id=mid, game="posthus", flags={}, seats=1, deal=1, status="running",
                created=datetime.now(UTC)))
    engine.dispose()


async def test_one_owner_release_and_expiry(pg_url: str) -> None:
    _match(pg_url)
    dsn = psycopg_dsn(pg_url)
    a, b = Owners(dsn, "A", ttl=0.6), Owners(dsn, "B", ttl=0.6)
    try:
        assert await a.acquire("m1") and await a.acquire("m1")  # held: no query
        assert not await b.acquire("m1")
        assert await b.owner_of("m1") == "A"
        await a.release("m1")
        assert await b.acquire("m1")  # released: taken at once, not a takeover
        assert b.taken_over == 0 and b.acquired == 1
        assert await a.acquire("m2") and not await b.acquire("m2")
        await a.renew()  # renewed: still A's after the first lease time
        await asyncio.sleep(0.4)
        await a.renew()
        await asyncio.sleep(0.4)
        assert not await b.acquire("m2")
        # A stops renewing (it died or stalled): its lease expires and B takes it over.
        await asyncio.sleep(0.7)
        assert await b.acquire("m2")
        assert b.taken_over == 1
        await a.renew()  # A wakes up: the lease is gone
        assert "m2" not in a.held and a.lost == 1
        b.accepting = False  # draining: takes nothing new, lets everything go
        assert not await b.acquire("m3")
        await b.release_all()
        assert await a.acquire("m1") and await a.acquire("m2")
    finally:
        await a.close()
        await b.close()


async def test_the_fence_refuses_a_stale_owner(pg_url: str) -> None:
    _match(pg_url, "g1", "g2")
    dsn = psycopg_dsn(pg_url)
    engine = create_engine(pg_url)
    a, b = Owners(dsn, "A", ttl=0.5), Owners(dsn, "B", ttl=0.5)
    wa, wb = GroupWriter(engine), GroupWriter(engine)
    wa.fence, wb.fence = a.fence, b.fence
    try:
        assert await a.acquire("g1") and await a.acquire("g2")
        await wa.write([Repository.event_row("g1", EventRow(1, "act", "x", 0))])
        await asyncio.sleep(0.6)  # A stalls past its lease; B takes g1 over
        assert await b.acquire("g1")
        # A wakes up and writes as if it still owned g1: refused, nothing written; its
        # event of g2 (nobody took it) in the same batch goes through.
        lost = wa.submit([Repository.event_row("g1", EventRow(2, "act", "stale", 0))])
        kept = wa.submit([Repository.event_row("g2", EventRow(1, "act", "y", 0))])
        with pytest.raises(LeaseLost):
            await lost
        await kept
        with pytest.raises(LeaseLost):  # and alone in its batch (a one-row statement)
            await wa.write([Repository.event_row("g1", EventRow(2, "act", "stale", 0))])
        await wb.write([Repository.event_row("g1", EventRow(2, "act", "new", 0))])
        # A worker that never held the match cannot write it either.
        c = Owners(dsn, "C", ttl=0.5)
        wc = GroupWriter(engine)
        wc.fence = c.fence
        with pytest.raises(LeaseLost):
            await wc.write([Repository.event_row("g2", EventRow(2, "act", "z", 0))])
        await asyncio.to_thread(wc.close)
        with engine.connect() as conn:
            rows = conn.execute(select(actions.c.match_id, actions.c.seq, actions.c.text)
                                .order_by(actions.c.match_id, actions.c.seq)).all()
        assert [tuple(r) for r in rows] == [("g1", 1, "x"), ("g1", 2, "new"),
                                            ("g2", 1, "y")]
    finally:
        await asyncio.to_thread(wa.close)
        await asyncio.to_thread(wb.close)
        await a.close()
        await b.close()
        engine.dispose()


async def test_a_batch_waits_for_a_takeover_in_flight(pg_url: str) -> None:
    """The fence locks the lease rows: while a takeover's ``UPDATE`` of a row is not
    committed, the owner's batch waits; if the takeover commits, the batch is refused
    (it reads the row's new token) — its other ops too (a game's end) — and if it rolls
    back, the batch is written."""
    _match(pg_url, "h1", "h2")
    dsn = psycopg_dsn(pg_url)
    engine = create_engine(pg_url)
    a = Owners(dsn, "A", ttl=30)
    wa = GroupWriter(engine)
    wa.fence = a.fence
    other = await psycopg.AsyncConnection.connect(dsn)
    try:
        assert await a.acquire("h1") and await a.acquire("h2")

        async def takeover(match_id: str) -> None:
            await other.execute("UPDATE owners SET worker = 'B', token = 'b' "
                                "WHERE match_id = %s", (match_id,))

        def finish(match_id: str) -> Callable[[Connection], None]:
            return lambda conn: Repository.write_finish(conn, match_id, {"w": [0]},
                                                        datetime.now(UTC))

        for match_id, commit in (("h1", True), ("h2", False)):
            await takeover(match_id)
            pending = wa.submit([Repository.event_row(match_id, EventRow(1, "act", "a", 0))])
            await asyncio.sleep(0.2)  # (a batch of its own; the next one waits behind it)
            ended = wa.submit([Repository.event_row(match_id, EventRow(2, "act", "b", 0)),
                               finish(match_id)])
            again = wa.submit([Repository.event_row(match_id, EventRow(2, "act", "c", 0)),
                               Repository.event_row(match_id, EventRow(3, "act", "d", 0))])
            await asyncio.sleep(0.5)
            assert not pending.done() and not ended.done()  # waiting for the lock
            await (other.commit() if commit else other.rollback())
            if commit:
                for fut in (pending, ended, again):
                    with pytest.raises(LeaseLost):
                        await fut
            else:
                await pending
                await ended
                with pytest.raises(RuntimeError):  # seq 2 is there: the key refuses it
                    await again
        with engine.connect() as conn:
            rows = conn.execute(select(actions.c.match_id, actions.c.seq)
                                .order_by(actions.c.match_id, actions.c.seq)).all()
            status = dict(conn.execute(select(matches.c.id, matches.c.status)).all())
        assert [tuple(r) for r in rows] == [("h2", 1), ("h2", 2)]
        assert status == {"h1": "running", "h2": "finished"}
    finally:
        await other.close()
        await asyncio.to_thread(wa.close)
        await a.close()
        engine.dispose()
