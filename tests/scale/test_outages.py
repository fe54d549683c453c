"""Issue 31, finding 3: outages degrade, they do not take the site down or shout.

A real worker in shared mode (its own PostgreSQL and Redis, so stopping them disturbs no
other test), a player connected throughout:

- Redis stopped: ``/readyz`` stays 200 but names ``redis`` under ``degraded`` (a
  balancer that follows it keeps the site up) and the player's moves go on;
- PostgreSQL stopped: every move is refused with ``unavailable`` and a retry hint (never
  ``internal``), an API call gets ``503 unavailable`` with ``Retry-After``, ``/readyz``
  says not ready; the worker logs a few lines for the whole outage, no traceback; the
  failed writes are counted; once PostgreSQL is back the same move is acknowledged."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.scale.cluster import cluster, opened, post
from tests.server.live import Client
from tests.services import PG_BIN, Postgres, Redis

pytestmark = pytest.mark.services


async def _ready(base: str, status: int, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(timeout=10) as http:
        while True:
            r = await http.get(f"{base}/readyz")
            if r.status_code == status or time.monotonic() > deadline:
                assert r.status_code == status, r.text
                out: dict[str, Any] = r.json()
                return out
            await asyncio.sleep(0.2)


async def _act(c: Client) -> dict[str, Any]:
    """Send the first legal action; the answer (a ``state`` or an ``error``)."""
    assert c.state is not None
    v0 = c.version
    await c.send("act", v=v0, action=c.state["legal"][0])
    while True:
        msg = await c.recv(15)
        if msg["t"] == "error" or (msg["t"] == "state" and c.version > v0):
            return msg


async def _samples(base: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    async with httpx.AsyncClient(timeout=10) as http:
        body = (await http.get(f"{base}/metrics")).text
    return {tuple(sorted(s.labels.items())): float(s.value)
            for f in text_string_to_metric_families(body) for s in f.samples
            if s.name == name}


async def test_redis_down_leaves_the_worker_ready_but_degraded(
        postgres: Postgres, pg_url: str, redis_server: Redis) -> None:
    del redis_server  # (skips when redis-server is missing)
    redis = Redis.start()  # our own: stopping the session's would disturb other tests
    try:
        with cluster(postgres, redis, pg_url, n=1) as w:
            base = w[0].http
            made = await post(base, "/api/matches",
                              {"game": "posthus", "seats": ["me"], "deal": 5})
            c = await opened(w[0].ws, made["match_id"], made["token"])
            up = await _ready(base, 200)
            assert up["degraded"] == [] and up["checks"]["redis"] is True
            redis.stop()
            deadline = time.monotonic() + 20
            while not (down := await _ready(base, 200))["degraded"]:
                assert time.monotonic() < deadline, "readiness never noticed Redis"
                await asyncio.sleep(0.2)
            assert down["degraded"] == ["redis"] and down["ready"] is True
            assert down["checks"] == {"database": True, "migrations": True,
                                      "writes": True, "redis": False,
                                      "not_draining": True, "warm": True}
            for _ in range(3):  # play goes on
                assert (await _act(c))["t"] == "state"
            redis.restart()
            deadline = time.monotonic() + 20
            while (await _ready(base, 200))["degraded"]:
                assert time.monotonic() < deadline, "still degraded with Redis back"
                await asyncio.sleep(0.2)
            assert (await _act(c))["t"] == "state"
            await c.close()
    finally:
        redis.stop()


async def test_postgres_down_is_unavailable_not_internal(redis_server: Redis) -> None:
    del redis_server
    if not PG_BIN:
        pytest.skip("PostgreSQL is not installed (scripts/system-deps.sh installs it)")
    pg, redis = Postgres.start(), Redis.start()  # our own: they are stopped here
    try:
        with cluster(pg, redis, pg.url(), n=1) as w:
            base = w[0].http
            made = await post(base, "/api/matches",
                              {"game": "posthus", "seats": ["me"], "deal": 6})
            c = await opened(w[0].ws, made["match_id"], made["token"])
            assert (await _act(c))["t"] == "state"
            before = len(w[0].output())

            pg.halt()
            outage = time.monotonic()
            codes: list[str] = []
            while time.monotonic() - outage < 10:  # a 10-second outage, moves tried
                msg = await _act(c)
                assert msg["t"] == "error", msg
                codes.append(msg["d"]["code"])
                assert msg["d"].get("retry_after") == 2, msg
                await asyncio.sleep(0.1)
            assert set(codes) == {"unavailable"}, codes
            async with httpx.AsyncClient(timeout=10) as http:
                r = await http.post(f"{base}/api/matches",
                                    json={"game": "posthus", "seats": ["me"]})
            assert r.status_code == 503, r.text
            assert r.json()["detail"]["code"] == "unavailable"
            assert r.headers["retry-after"] == "2"
            down = await _ready(base, 503)
            assert down["checks"]["database"] is False and down["ready"] is False
            assert (await _samples(base, "spillebord_database_up"))[()] == 0
            errors = await _samples(base, "spillebord_http_errors_total")
            assert errors[(("status", "503"),)] >= 2, errors  # the API call, /readyz

            pg.resume()
            await _ready(base, 200)
            deadline = time.monotonic() + 20
            while (msg := await _act(c))["t"] != "state":  # the same move, acknowledged
                assert msg["d"]["code"] == "unavailable", msg
                assert time.monotonic() < deadline, "moves never came back"
                await asyncio.sleep(0.5)

            assert (await _samples(base, "spillebord_database_up"))[()] == 1
            failures = await _samples(base, "spillebord_write_failures_total")
            assert failures[(("reason", "unavailable"),)] >= 1, failures
            assert failures[(("reason", "conflict"),)] == 0, failures
            refusals = await _samples(base, "spillebord_refusals_total")
            assert refusals[(("code", "unavailable"), ("via", "ws"))] >= len(codes)
            log = w[0].output()[before:]
            print(f"{len(codes)} moves refused; the outage's log:\n{log}")
            assert "Traceback" not in log
            assert len(log.splitlines()) <= 8, log
            await c.close()
    finally:
        redis.stop()
        pg.stop()
