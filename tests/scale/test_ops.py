"""/readyz of a real worker process in shared mode (PostgreSQL + Redis): ready with
Redis answering; while Redis is stopped still ready (play goes on) but ``degraded``;
not degraded once it is back (issue 31; tests/scale/test_outages.py plays through it)."""

from __future__ import annotations

import time

import httpx
from tests.scale.cluster import cluster
from tests.services import Postgres, Redis


def _ready(base: str, want: int, timeout: float = 15.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while True:
        r = httpx.get(f"{base}/readyz", timeout=10)
        if r.status_code == want or time.monotonic() > deadline:
            assert r.status_code == want, r.text
            out: dict[str, object] = r.json()
            return out
        time.sleep(0.2)


def test_readyz_follows_redis(postgres: Postgres, pg_url: str, redis_server: Redis) -> None:
    del redis_server  # (skips when redis-server is missing)
    redis = Redis.start()  # our own: stopping the session's would disturb other tests
    try:
        with cluster(postgres, redis, pg_url, n=1) as workers:
            base = workers[0].http
            assert _ready(base, 200)["checks"] == {"database": True, "migrations": True,
                                                   "writes": True, "redis": True,
                                                   "not_draining": True, "warm": True}
            redis.stop()
            deadline = time.monotonic() + 15
            while not (down := _ready(base, 200))["degraded"]:
                assert time.monotonic() < deadline, "Redis down never showed"
                time.sleep(0.2)
            assert down["checks"] == {"database": True, "migrations": True, "writes": True,
                                      "redis": False, "not_draining": True, "warm": True}
            assert httpx.get(f"{base}/healthz").status_code == 200
            redis.restart()
            deadline = time.monotonic() + 15
            while _ready(base, 200)["degraded"]:
                assert time.monotonic() < deadline, "still degraded with Redis back"
                time.sleep(0.2)
    finally:
        redis.stop()
