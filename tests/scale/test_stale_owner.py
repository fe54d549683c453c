"""Issue 31, finding 1: a stale owner after a rolling restart.

Two workers on PostgreSQL + Redis.  A bots-only game plays on; its owner is restarted
(SIGTERM: it drains and hands the game over, then starts again and reloads the running
game from the database).  The other worker plays the game to its end and deletes its
lease row.  The restarted worker's copy (never watched there, so never caught up) still
says "running" — and its bot driver then found nobody owning the game and took a fresh
lease at epoch 1, which ``own`` trusted without reading the database: from then on it
served the old position as its own and failed every write.

After the restart every worker must serve the finished game as finished, at the
database's version, and a running solitaire the same way; no worker keeps failing
writes (``spillebord_write_failures_total`` stays 0 and ``/readyz`` stays ready)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from tests.scale.cluster import cluster, get, opened, post
from tests.scale.test_rolling_restart import restart
from tests.services import Postgres, Redis, Worker

pytestmark = [pytest.mark.services, pytest.mark.slow]
BOTS = [{"bot": "random"}] * 4  # a random kugler game is about 550 moves


def _db(pg_url: str, sql: str, **params: str) -> list[tuple[object, ...]]:
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql), params)]
    finally:
        engine.dispose()


def _owner_index(pg_url: str, match_id: str, workers: list[Worker]) -> int | None:
    rows = _db(pg_url, "SELECT worker FROM owners WHERE match_id = :m", m=match_id)
    if not rows:
        return None
    pid = str(rows[0][0]).split("-")[0]
    for i, w in enumerate(workers):
        if w.proc is not None and str(w.proc.pid) == pid:
            return i
    return None


async def failed_writes(w: Worker) -> float:
    """``spillebord_write_failures_total`` summed over its reasons."""
    async with httpx.AsyncClient(timeout=10) as http:
        body = (await http.get(f"{w.http}/metrics")).text
    found = [s.value for f in text_string_to_metric_families(body) for s in f.samples
             if s.name == "spillebord_write_failures_total"]
    assert found, "no spillebord_write_failures_total"
    return float(sum(found))


async def _served(w: Worker, match_id: str) -> tuple[str, int]:
    info = (await get(w.http, f"/api/matches/{match_id}")).json()
    return str(info["status"]), int(info["version"])


async def test_every_worker_serves_the_database_after_the_owner_restarts(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_BOT_DELAY="0.06",
                 SPILLEBORD_LEASE_SECONDS="3") as w:
        bots = (await post(w[0].http, "/api/matches",
                           {"game": "kugler", "seats": BOTS, "deal": 31}))["match_id"]
        solo = await post(w[0].http, "/api/matches",
                          {"game": "posthus", "seats": ["me"], "deal": 31})
        deadline = time.monotonic() + 10
        while (owner := _owner_index(pg_url, bots, w.items)) is None:
            assert time.monotonic() < deadline, "nobody took the bots' game"
            await asyncio.sleep(0.05)
        other = w[1 - owner]
        assert (await _served(other, bots))[0] == "running"  # a copy there too
        # the solitaire's player is on the worker that is restarted: its game goes over
        player = await opened(w[owner].ws, solo["match_id"], solo["token"])
        for _ in range(5):
            await player.send("act", v=player.version, action=player.state["legal"][0])
            await player.until(lambda s, v=player.version: player.version > v)
        await player.close()

        await restart(w[owner])  # drains (hands the games over) and comes back
        assert (await _served(w[owner], bots))[0] == "running", \
            "the game ended before the restarted worker reloaded it: not the case tested"
        deadline = time.monotonic() + 60
        while _db(pg_url, "SELECT status FROM matches WHERE id = :m",
                  m=bots)[0][0] != "finished":
            assert time.monotonic() < deadline, "the bots' game never ended"
            await asyncio.sleep(0.2)
        await asyncio.sleep(3 * 2.0 + 1)  # > the restarted worker's bot-driver retries

        # the running solitaire: moves on both workers, then both say the same
        for w_i in (other, w[owner]):
            c = await opened(w_i.ws, solo["match_id"], solo["token"])
            await c.send("act", v=c.version, action=c.state["legal"][0])
            await c.until(lambda s, c=c, v=c.version: c.version > v)
            await c.close()
        stored = {m: int(_db(pg_url, "SELECT coalesce(max(seq), 0) FROM actions "
                               "WHERE match_id = :m", m=m)[0][0])
                  for m in (bots, solo["match_id"])}
        for i in range(2):
            assert await _served(w[i], bots) == ("finished", stored[bots]), \
                f"worker {i} serves a stale copy of the finished game"
            assert await _served(w[i], solo["match_id"]) == ("running",
                                                            stored[solo["match_id"]])
            assert await failed_writes(w[i]) == 0
            async with httpx.AsyncClient(timeout=10) as http:
                assert (await http.get(f"{w[i].http}/readyz")).status_code == 200
        assert "UniqueViolation" not in w[owner].output()
