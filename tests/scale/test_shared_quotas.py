"""Quotas shared across workers (issue 29): in shared mode the rates are counted in
Redis as well as in each worker (server/scale/shared_quotas.py), so a client whose
requests land on both workers — spread by nginx, or sent to each in turn — gets its
limit once, not once per worker.  Before: each worker counted alone (twice the limit
with two workers)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from tests.scale.cluster import cluster
from tests.services import Nginx, Postgres, Redis, Workers

pytestmark = pytest.mark.services
GUESTS = 4   # new guest ids per address per hour
MATCHES = 3  # matches per player per minute


@pytest.fixture(scope="module")
def two(postgres: Postgres, redis_server: Redis) -> Iterator[Workers]:
    with cluster(postgres, redis_server, postgres.create_database("shared_quotas"),
                 SPILLEBORD_LIMITS="on", SPILLEBORD_TRUSTED_PROXIES="127.0.0.1",
                 SPILLEBORD_LIMIT_GUESTS_PER_HOUR_ADDRESS=str(GUESTS),
                 SPILLEBORD_LIMIT_MATCHES_PER_MINUTE=str(MATCHES)) as w:
        yield w


def assert_limited(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text
    assert r.json()["detail"]["code"] == "rate_limited"
    assert int(r.headers["Retry-After"]) >= 1


async def test_guests_per_address_hold_across_workers_behind_nginx(
        two: Workers, nginx_binary: str) -> None:
    proxy = Nginx.start([two[0].port, two[1].port])
    try:
        codes: Counter[int] = Counter()
        async with httpx.AsyncClient(base_url=proxy.http, timeout=30) as http:
            # nginx spreads these over both workers (a hash of its request id): 16
            # requests all on one worker would happen once in 30,000 runs
            for _ in range(16):
                r = await http.post("/api/players", headers={"X-Forwarded-For": "10.9.0.1"})
                codes[r.status_code] += 1
                if r.status_code == 429:
                    assert_limited(r)
        assert codes == {201: GUESTS, 429: 16 - GUESTS}, codes
    finally:
        proxy.stop()


async def test_matches_per_player_hold_across_workers(two: Workers) -> None:
    where = {"X-Forwarded-For": "10.9.0.2"}
    async with httpx.AsyncClient(timeout=30) as http:
        player = (await http.post(f"{two[0].http}/api/players", headers=where)).json()
        me = {**where, "X-Player": player["player_id"]}
        made = []
        for i in range(MATCHES):  # to each worker in turn
            r = await http.post(f"{two[i % 2].http}/api/matches", headers=me,
                                json={"game": "studenter"})
            assert r.status_code == 201, r.text
            made.append(r)
        for worker in (two[0], two[1]):  # both refuse now
            assert_limited(await http.post(f"{worker.http}/api/matches", headers=me,
                                           json={"game": "studenter"}))
