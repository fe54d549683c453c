"""One player, one seat per table on two worker processes (PostgreSQL + Redis), issue
28: the same player taking a seat of one public table on both workers at one instant
gets one seat and one refusal, 50 times out of 50."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from tests.scale.cluster import cluster
from tests.services import Postgres, Redis

from spillebord.server.infra.storage.models import seats

pytestmark = [pytest.mark.services, pytest.mark.slow]
TRIES = 50


async def test_fifty_double_takes_across_two_workers(postgres: Postgres,
                                                     redis_server: Redis,
                                                     pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        engine = create_engine(pg_url)
        results = []
        async with httpx.AsyncClient(timeout=60) as http:
            for i in range(TRIES):
                on, other = w[i % 2], w[(i + 1) % 2]
                host = (await http.post(f"{on.http}/api/players")).json()["player_id"]
                me = (await http.post(f"{other.http}/api/players")).json()["player_id"]
                made = (await http.post(f"{on.http}/api/matches", headers={"X-Player": host},
                                        json={"game": "gammel_jomfru", "public": True,
                                              "seats": ["me", "human", "human"]})).json()
                h = {"X-Player": me}
                answers = await asyncio.gather(*(
                    http.post(f"{x.http}/api/lobby/{made['match_id']}/take", headers=h)
                    for x in (on, other)))
                assert all(r.status_code < 500 for r in answers), [r.text for r in answers]
                with engine.connect() as conn:
                    mine = conn.execute(select(func.count()).where(
                        seats.c.match_id == made["match_id"],
                        seats.c.player_id == me)).scalar()
                results.append((int(mine or 0), sorted(r.status_code for r in answers)))
        engine.dispose()
    assert all(r == (1, [200, 409]) for r in results), results
