"""Quotas shared across workers (issue 29): in shared mode the rates are counted in
Redis as well as in each worker (server/scale/shared_quotas.py), so a client whose
requests land on both workers — spread by nginx, or sent to each in turn — gets its
limit once, not once per worker.  Before: each worker counted alone (twice the limit
with two workers).  While Redis is away each worker counts alone again, and a spending
never waits on Redis past its timeout."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from tests.scale.cluster import cluster
from tests.services import Nginx, Postgres, Redis, Workers

from spillebord.server.errors import Refusal
from spillebord.server.infra.bus import LocalBus, LocalSerializer
from spillebord.server.infra.quotas import Limits, Quotas
from spillebord.server.scale import shared_quotas
from spillebord.server.scale.factory import Transport
from spillebord.server.scale.redis_bus import RedisBus

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


async def test_rates_fall_back_to_each_worker_while_redis_is_away(
        redis_server: Redis, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Two workers' quotas on one real Redis of their own (this test hangs, kills and
    restarts it): shared while it answers; while it hangs or is gone, a spending is
    answered within Redis's timeout, not refused and not an error, and each worker
    counts alone (up to twice the rate over two workers, as without Redis), with one
    warning per outage; back once it answers again after the retry time."""
    monkeypatch.setattr(shared_quotas, "RETRY_SECONDS", 1.0)
    outage = Redis.start()
    rates: list[shared_quotas.SharedRates] = []
    try:
        transport = Transport(LocalBus(), LocalSerializer(), redis=RedisBus(outage.url))
        assert Transport(LocalBus(), LocalSerializer()).shared_rates(outage.url) is None
        for _ in range(2):  # two workers, each with its own client
            made = transport.shared_rates(outage.url)
            assert made is not None
            rates.append(made)
        workers = [Quotas(Limits(), lambda _m: True, r) for r in rates]

        async def spend(worker: int, key: str) -> str:
            start = time.monotonic()
            try:
                await workers[worker].spend("matches", [(key, MATCHES)])
                code = "ok"
            except Refusal as refusal:
                assert refusal.status == 429 and refusal.retry_after
                code = refusal.code
            assert time.monotonic() - start < 3 * shared_quotas.TIMEOUT + 1, key
            return code

        # Redis answers: MATCHES in all, whichever worker counts them
        assert [await spend(i % 2, "up") for i in range(MATCHES)] == ["ok"] * MATCHES
        assert [await spend(0, "up"), await spend(1, "up")] == ["rate_limited"] * 2

        # Redis hangs (stopped, its port open): answered within the timeout, counted here
        outage.proc.send_signal(signal.SIGSTOP)
        try:
            with caplog.at_level(logging.WARNING, logger=shared_quotas.__name__):
                assert await spend(0, "hung") == "ok"
                assert await spend(1, "hung") == "ok"
                # (until the retry time, no worker asks Redis: at once)
                assert [await spend(0, "hung") for _ in range(MATCHES)] == [
                    "ok"] * (MATCHES - 1) + ["rate_limited"]
                assert [await spend(1, "hung") for _ in range(MATCHES)] == [
                    "ok"] * (MATCHES - 1) + ["rate_limited"]
            warned = [r for r in caplog.records if "Redis is unreachable" in r.message]
            assert len(warned) == 2  # once per worker and outage, not once per request
        finally:
            outage.proc.send_signal(signal.SIGCONT)

        # Redis gone (connection refused): the same, each worker alone
        outage.proc.kill()
        outage.proc.wait(5)
        await asyncio.sleep(1.1)  # past the retry time: the workers ask Redis again
        assert [await spend(0, "gone") for _ in range(MATCHES + 1)] == [
            "ok"] * MATCHES + ["rate_limited"]
        assert [await spend(1, "gone") for _ in range(MATCHES + 1)] == [
            "ok"] * MATCHES + ["rate_limited"]

        # Redis back: shared again once the retry time has passed
        outage.restart()
        await asyncio.sleep(1.1)
        assert [await spend(i % 2, "back") for i in range(MATCHES)] == ["ok"] * MATCHES
        assert [await spend(0, "back"), await spend(1, "back")] == ["rate_limited"] * 2
    finally:
        for r in rates:
            await r.close()
        outage.stop()
