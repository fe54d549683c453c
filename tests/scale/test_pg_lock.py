"""The cross-worker match lock on a real PostgreSQL: two serializers (two workers'
pools) never hold one match at once, different matches do not wait for each other, a
lock held by a process that is SIGKILLed is released by PostgreSQL, and an unreachable
or stuck lock is refused (``unavailable``) instead of hanging."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

import pytest
from tests.services import Postgres

from spillebord.server.errors import Refusal
from spillebord.server.scale.pg_lock import PgSerializer, lock_key, psycopg_dsn

pytestmark = pytest.mark.services


async def test_one_holder_per_match_across_serializers(postgres: Postgres) -> None:
    dsn = psycopg_dsn(postgres.url())
    workers = [PgSerializer(dsn, size=4), PgSerializer(dsn, size=4)]
    inside: dict[str, int] = {"a": 0, "b": 0}
    most = {"a": 0, "b": 0}
    order: list[tuple[str, int]] = []

    async def critical(s: PgSerializer, match: str, i: int) -> None:
        async with s.hold(match):
            inside[match] += 1
            most[match] = max(most[match], inside[match])
            await asyncio.sleep(0.002)
            order.append((match, i))
            inside[match] -= 1

    try:
        await asyncio.gather(*(critical(workers[i % 2], "ab"[i % 4 // 2], i)
                               for i in range(80)))
        assert most == {"a": 1, "b": 1}
        assert len(order) == 80
        # Two matches interleave: match b did not wait for all of match a.
        firsts = [m for m, _ in order[:20]]
        assert "a" in firsts and "b" in firsts
        assert sum(w.acquired for w in workers) == 80
    finally:
        for w in workers:
            await w.close()


async def test_lock_of_a_killed_process_is_released(postgres: Postgres) -> None:
    key = lock_key("crashy")
    dsn = psycopg_dsn(postgres.url())
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import psycopg,sys,time\n"
         f"c=psycopg.connect({dsn!r},autocommit=True)\n"
         f"c.execute('SELECT pg_advisory_lock({key})')\n"
         "print('held',flush=True)\ntime.sleep(60)\n"],
        stdout=subprocess.PIPE)
    s = PgSerializer(dsn, size=2, lock_timeout_ms=300)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        with pytest.raises(Refusal) as busy:  # held elsewhere: refused, not hung
            async with s.hold("crashy"):
                pass
        assert busy.value.code == "unavailable"
        holder.kill()
        holder.wait(5)
        t0 = time.monotonic()
        for _ in range(50):  # the server notices the closed socket almost at once
            try:
                async with s.hold("crashy"):
                    break
            except Refusal:
                await asyncio.sleep(0.1)
        else:
            pytest.fail("the lock of the killed process was never released")
        assert time.monotonic() - t0 < 10
    finally:
        holder.kill()
        await s.close()


async def test_unreachable_database_is_refused() -> None:
    s = PgSerializer("postgresql://postgres@127.0.0.1:1/none", connect_timeout=1)
    with pytest.raises(Refusal) as exc:
        async with s.hold("m"):
            pass
    assert exc.value.code == "unavailable" and exc.value.status == 503
    await s.close()


async def test_a_terminated_lock_connection_is_not_reused(postgres: Postgres) -> None:
    s = PgSerializer(psycopg_dsn(postgres.url()), size=1)
    try:
        async with s.hold("m"):
            pass
        postgres.psql("postgres", "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE application_name = 'spillebord-lock'")
        for _ in range(3):  # the dead pooled connection is dropped and replaced
            try:
                async with s.hold("m"):
                    break
            except Refusal:
                continue
        else:
            pytest.fail("the serializer did not recover from a terminated connection")
    finally:
        await s.close()


async def test_bot_leases_have_one_holder_and_move_on_when_it_dies(
        postgres: Postgres) -> None:
    from spillebord.server.scale.leases import Leases

    dsn = psycopg_dsn(postgres.url())
    a, b = Leases(dsn, retry=0.0), Leases(dsn, retry=0.3)
    try:
        assert await a.acquire("m1") and await a.acquire("m1")  # held: no second query
        assert not await b.acquire("m1")
        await a.release("m1")
        assert not await b.acquire("m1")  # asked a moment ago: not asked again yet
        await asyncio.sleep(0.35)
        assert await b.acquire("m1")
        await b.release("m1")
        await asyncio.sleep(0.35)
        assert await a.acquire("m1")
        assert await b.acquire("m2") and not await a.acquire("m2")
        await a.release("m1")
        assert await b.acquire("m1")
        await b.close()  # the holder's database session ends (as when it dies)
        for _ in range(50):  # the server ends that session a moment later
            if await a.acquire("m1") and await a.acquire("m2"):
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the leases of a closed session were never released")
    finally:
        await a.close()
        await b.close()
