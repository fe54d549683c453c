"""kill -9 of a game owner under load (two workers behind nginx, PostgreSQL + Redis,
2-second leases): solitaire players act as fast as answers come, through nginx, which
sends each game's sockets to the worker that owns it.  The worker that owns the most
games is SIGKILLed.  Its players' sockets drop and reconnect through nginx to the other
worker, which takes each game over from the database once its lease has expired: every
one of those games moves again within the lease time (plus a forward timeout and
margin), 0 acknowledged actions are lost, none is applied twice (the stored events are
1, 2, 3 … with each acknowledged action under its number), every client is back, and
the survivor's /metrics count the takeovers."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import create_engine, select
from tests.scale.cluster import cluster, metric
from tests.scale.test_rolling_restart import assert_each_acked_once, start_players
from tests.services import Nginx, Postgres, Redis

from spillebord.server.infra.storage.models import owners

pytestmark = pytest.mark.services
LEASE = 2.0


async def test_killed_owner_games_go_on_on_the_other_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str, nginx_binary: str) -> None:
    del nginx_binary  # (skips without nginx)
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_LEASE_SECONDS=str(LEASE)) as w:
        proxy = Nginx.start([w[0].port, w[1].port])
        try:
            players, stop, tasks = await start_players(proxy, 10, first_deal=700, seed=9)

            def acked() -> int:
                return sum(len(p.acked) for p in players)

            async def more(n: int, timeout: float = 30) -> None:
                target = acked() + n
                deadline = time.monotonic() + timeout
                while acked() < target and not all(p.done for p in players):
                    assert time.monotonic() < deadline, "the games stopped moving"
                    for t in tasks:
                        if t.done():
                            t.result()  # a failed player fails the test now
                    await asyncio.sleep(0.02)

            await more(80)
            engine = create_engine(pg_url)
            with engine.connect() as conn:
                owned = dict(conn.execute(select(owners.c.match_id, owners.c.worker)).all())
            pids = {str(x.proc.pid): i for i, x in enumerate(w.items) if x.proc}
            by_worker = [[m for m, o in owned.items() if pids.get(str(o).split("-")[0]) == i]
                         for i in range(2)]
            victim = 0 if len(by_worker[0]) >= len(by_worker[1]) else 1
            survivor = w[1 - victim]
            doomed = [p for p in players if p.match_id in by_worker[victim] and not p.done]
            assert doomed, f"the victim owns no running game: {by_worker}"
            at_drop: dict[str, int] = {}  # acknowledged actions when its socket dropped
            taken0 = await metric(survivor, "spillebord_game_leases_taken_over_total")
            killed = time.monotonic()
            w[victim].kill()
            # Each of its games moves again on the survivor within the lease time.
            moved: dict[str, float] = {}
            while len(moved) < len(doomed):
                for p in doomed:
                    if p.codes and p.match_id not in at_drop:
                        at_drop[p.match_id] = len(p.acked)
                    if p.match_id in at_drop and p.match_id not in moved and (
                            len(p.acked) > at_drop[p.match_id] or p.done):
                        moved[p.match_id] = time.monotonic() - killed
                assert time.monotonic() - killed < LEASE + 8, (
                    f"games not taken over: {[p.match_id for p in doomed]} {moved}")
                for t in tasks:
                    if t.done():
                        t.result()
                await asyncio.sleep(0.01)
            taken = await metric(survivor, "spillebord_game_leases_taken_over_total") - taken0
            await more(60)
            stop.set()
            await asyncio.wait_for(asyncio.gather(*tasks), 30)
        finally:
            proxy.stop()

        print(f"victim owned {len(doomed)} of {len(players)} games; back in "
              f"{min(moved.values()):.2f}-{max(moved.values()):.2f} s after the kill; "
              f"taken over {taken:.0f}")
        assert max(moved.values()) < LEASE + 3.0  # lease + forward timeout + margin
        assert taken >= len([p for p in doomed if not p.done])
        for p in doomed:
            assert p.codes and p.back_in, f"{p.match_id}: its client never reconnected"
        assert_each_acked_once(engine, players)
        engine.dispose()
