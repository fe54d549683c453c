"""Idle games on two worker processes (PostgreSQL + Redis), issue 20: the owner of a
game nobody has a socket on parks it after the idle time and releases its lease (no
more renewals of an abandoned game), so the next socket — on the other worker — takes
the game at once, as a released game (not a takeover after expiry), with every event."""

from __future__ import annotations

import asyncio
import time

import pytest
from tests.scale.cluster import cluster, metric, opened, post
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services


async def test_a_parked_game_releases_its_lease_to_the_next_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_IDLE_SECONDS="0.6",
                 SPILLEBORD_LEASE_SECONDS="30") as w:
        made = await post(w[0].http, "/api/matches", {"game": "posthus", "deal": 77})
        mid, token = made["match_id"], made["token"]
        c = await opened(w[0].ws, mid, token)
        st = c.state
        assert st is not None
        await c.send("act", action=next(a for a in st["legal"] if a != "resign"))
        await c.until(lambda s: c.version == 1)
        assert await metric(w[0], "spillebord_game_leases_held") == 1
        await c.close()
        deadline = time.monotonic() + 5
        while await metric(w[0], "spillebord_game_leases_held") > 0:
            assert time.monotonic() < deadline, "the idle game kept its lease"
            await asyncio.sleep(0.1)
        assert await metric(w[0], "spillebord_games_parked_total") >= 1
        rows = postgres.psql(pg_url.rsplit("/", 1)[1],
                             f"SELECT token FROM owners WHERE match_id = '{mid}'")
        assert rows.strip() == "", rows  # released: no token, nobody renews it
        # The next socket, on the other worker, plays on at once (the lease is 30 s).
        started = time.monotonic()
        d = await opened(w[1].ws, mid, token)
        assert d.version == 1
        st = d.state
        assert st is not None
        await d.send("act", action=next(a for a in st["legal"] if a != "resign"))
        await d.until(lambda s: d.version == 2, timeout=10)
        assert time.monotonic() - started < 5
        await d.close()
        assert await metric(w[1], "spillebord_game_leases_taken_total") == 1
        assert await metric(w[1], "spillebord_game_leases_taken_over_total") == 0
        assert await metric(w[1], "spillebord_events_forwarded_total") == 0
