"""The operator drill (issue 31): one run through what an operator lives through, with
players connected throughout — two workers behind nginx on PostgreSQL + Redis of their
own (this test stops them), solitaire players and Kugler og Jokere tables (one human,
three bots) acting through nginx (tests/scale/drill.py):

1. a rolling upgrade N → N+1 across an expand migration (tests/scale/release.py), as
   docs/deploy.md "Upgrade and roll back" says;
2. PostgreSQL down 10 s: both workers not ready (``database: false``,
   ``spillebord_database_up`` 0), moves refused ``unavailable``; then ready again;
3. Redis down 10 s: both workers ready but ``degraded: ["redis"]``,
   ``spillebord_redis_connected`` 0; play goes on; then not degraded;
4. kill -9 of the worker that owns the most games, restarted as ``Restart=always``
   would: it says ``warming`` before ready (``spillebord_warming`` 1, then 0), the
   other worker takes the games over after the lease.

After each step every worker shows every game as the database has it and the readiness
and metrics are read; at the end 0 acknowledged actions are lost or doubled and no
refusal was ``internal`` (a player fails the test on any code but ``stale``,
``unavailable`` or ``rate_limited``)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from tests.scale.drill import Stage, metrics, readyz, rolling_upgrade, wait_ready
from tests.scale.release import db_upgrade, next_release, release_env
from tests.services import PG_BIN, Nginx, Postgres, Redis, Worker, free_port, worker_env

pytestmark = [pytest.mark.services, pytest.mark.slow]
OUTAGE = 10.0


@pytest.mark.timeout(900)  # about 5 minutes on 2 loaded cores
async def test_operator_drill(redis_server: Redis, nginx_binary: str,
                              tmp_path: Path) -> None:
    del redis_server, nginx_binary  # (skip without redis-server or nginx)
    if not PG_BIN:
        pytest.skip("PostgreSQL is not installed (scripts/system-deps.sh installs it)")
    pg, redis = Postgres.start(), Redis.start()  # our own: this test stops them
    url = pg.url()
    db_upgrade(url)
    n1 = release_env(next_release(tmp_path))
    # warmed as in production: step 4 watches the restarted worker say "warming"
    env = worker_env(url, redis.url, SPILLEBORD_MIGRATE="", SPILLEBORD_LEASE_SECONDS="2",
                     SPILLEBORD_WARM="1")
    workers = [Worker(free_port(), env) for _ in range(2)]
    engine = create_engine(url, pool_pre_ping=True)
    log: list[str] = []
    try:
        for w in workers:
            w.start()
        proxy = Nginx.start([w.port for w in workers])
        stage = Stage(proxy, workers, engine)
        try:
            await stage.seat_players(solitaires=4, tables=2, seed=5000)
            t0 = time.monotonic()

            # 1. rolling upgrade across a migration
            await rolling_upgrade(stage, url, n1)
            for w in workers:
                m = await metrics(w)
                assert m["spillebord_warming"] == 0 and m["spillebord_database_up"] == 1
                assert m["spillebord_redis_connected"] == 1 and m["spillebord_draining"] == 0
            log.append(f"upgrade done at {time.monotonic() - t0:.1f} s")

            # 2. PostgreSQL down 10 s
            stage.phase = "PostgreSQL down"
            await asyncio.to_thread(pg.halt)
            down = time.monotonic()
            for w in workers:
                body = await wait_ready(w, 503, lambda b: not b["checks"]["database"])
                assert body["status"] == "not_ready" and body["ready"] is False
                assert (await metrics(w))["spillebord_database_up"] == 0
            await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))
            await asyncio.to_thread(pg.resume)
            stage.phase = "PostgreSQL back"
            for w in workers:
                await wait_ready(w, 200)
                m = await metrics(w)
                assert m["spillebord_database_up"] == 1
                assert m.get("spillebord_write_failures_total{reason=conflict}", 0) == 0
            await stage.more(40)
            await stage.settle()
            log.append(f"PostgreSQL outage done at {time.monotonic() - t0:.1f} s")

            # 3. Redis down 10 s
            stage.phase = "Redis down"
            before = stage.acked()
            redis.stop()
            down = time.monotonic()
            for w in workers:
                body = await wait_ready(w, 200, lambda b: b["degraded"] == ["redis"])
                assert body["ready"] is True and body["checks"]["redis"] is False
                assert (await metrics(w))["spillebord_redis_connected"] == 0
            await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))
            assert stage.acked() > before, "play stopped with Redis down"
            redis.restart()
            stage.phase = "Redis back"
            for w in workers:
                await wait_ready(w, 200, lambda b: b["degraded"] == [], timeout=30)
            await stage.more(40)
            await stage.settle()
            log.append(f"Redis outage done at {time.monotonic() - t0:.1f} s")

            # 4. kill -9 of the owner
            victim = stage.owner_of_most()
            survivor = workers[1 - victim]
            stage.phase = f"worker {victim} killed"
            workers[victim].kill()
            killed = time.monotonic()
            seen_warming = asyncio.create_task(_sees_warming(workers[victim]))
            # started again at once, as Restart=always does
            await asyncio.to_thread(workers[victim].start, 120.0, False)
            assert await seen_warming, "the restarted worker never said warming"
            await wait_ready(workers[victim], 200, timeout=120)
            back = time.monotonic() - killed
            assert (await readyz(survivor))[0] == 200
            assert (await metrics(survivor))["spillebord_game_leases_taken_over_total"] > 0
            stage.phase = "after the kill"
            await stage.more(40)
            await stage.settle()
            log.append(f"kill -9 done at {time.monotonic() - t0:.1f} s "
                       f"(victim ready again {back:.1f} s after the kill)")
            await stage.finish()
        finally:
            proxy.stop()
        stage.check_acked()
        refusals = [r for p in stage.players for r in p.refusals]
        drops = [d for p in stage.players for d in p.drops]
        print("\n".join(log))
        print(f"acknowledged {stage.acked()} in {len(stage.players)} games; "
              f"drops {sorted(set(drops))} x{len(drops)}; refusals: "
              f"{ {r: refusals.count(r) for r in sorted(set(refusals))} }; new games "
              f"refused with 503: { {r: stage.retried.count(r) for r in set(stage.retried)} }")
        assert not [r for r in refusals if "internal" in r]
        assert any("PostgreSQL down" in r for r in refusals), "the outage was not felt"
    finally:
        for w in workers:
            w.stop()
        engine.dispose()
        redis.stop()
        pg.stop()


async def _sees_warming(w: Worker, timeout: float = 120) -> bool:
    """Whether the worker, once it listens again, answers ``/readyz`` with ``warming``
    (and ``spillebord_warming`` 1) before it is ready."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            code, body = await readyz(w)
        except Exception:  # not listening yet (or still the killed process's port)
            await asyncio.sleep(0.02)
            continue
        if body.get("status") == "warming":  # the killed process answers no more
            assert code == 503
            return (await metrics(w))["spillebord_warming"] == 1
        if code == 200:
            return False
        await asyncio.sleep(0.02)
    return False
