"""Bots and takeover with two workers: only one worker plays a match's bots (the
game's owner, under a lease in PostgreSQL), every socket still sees every bot move in
order; a human connected to one worker is never taken over by the other worker's
driver (presence is shared over the bus), and once the human has left every worker,
takeover starts after the room's timeout."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from sqlalchemy import create_engine, text
from tests.scale.cluster import cluster, events_of, get, opened, play_turns, post, wait_all
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services


async def test_bots_play_once_across_workers(postgres: Postgres, redis_server: Redis,
                                             pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches", {
            "game": "gammel_jomfru", "seats": ["me", {"bot": "random"}, {"bot": "random"}]})
        mid = made["match_id"]
        player = await opened(w[1].ws, mid, made["token"])
        watcher = await opened(w[0].ws, mid)
        # Both workers hold the match and have a driver; one owns the game (its lease
        # row names it), and only the owner's driver plays.
        engine = create_engine(pg_url)
        sql = text("SELECT worker FROM owners WHERE match_id = :m")
        t0 = time.monotonic()
        holders: list[str] = []
        while not holders and time.monotonic() - t0 < 10:
            with engine.connect() as conn:
                holders = list(conn.execute(sql, {"m": mid}).scalars())
            await asyncio.sleep(0.05)
        engine.dispose()
        assert len(holders) == 1
        await wait_all(play_turns(player, random.Random(3), time.monotonic() + 60),
                       timeout=70)
        await watcher.until(lambda s: s["outcome"] is not None, timeout=20)
        record = (await get(w[1].http, f"/api/matches/{mid}/record")).json()
        texts = [e["action"] for e in record["events"]]
        assert any(e.get("by") == "bot" for e in record["events"])
        for c in (player, watcher):
            assert [e["action"] for e in events_of(c)] == texts
        for c in (player, watcher):
            await c.close()


async def test_takeover_waits_for_the_human_on_any_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches", {
            "game": "gammel_jomfru", "seats": ["me", {"bot": "random"}],
            "takeover_seconds": 5})
        mid = made["match_id"]
        human = await opened(w[0].ws, mid, made["token"])   # the human on worker 0
        watcher = await opened(w[1].ws, mid)                 # worker 1 also holds it
        st = await human.until(lambda s: bool(s["legal"]), timeout=20)
        v = human.version
        assert st["to_move"] == 0
        info = (await get(w[1].http, f"/api/matches/{mid}")).json()
        assert info["seats"][0]["connected"] is True         # worker 1 knows
        await asyncio.sleep(7)                               # > takeover_seconds
        info = (await get(w[1].http, f"/api/matches/{mid}")).json()
        assert info["version"] == v, "a worker took over a connected human's seat"
        await human.close()                                   # gone from every worker
        t0 = time.monotonic()
        await watcher.until(lambda s: watcher.version > v, timeout=25)
        waited = time.monotonic() - t0
        assert 4.0 <= waited <= 20, waited
        # the first event after the wait is the human seat's, played by a bot (the bot
        # seat may already have answered it when the watcher's state arrives)
        first = next(e for e in events_of(watcher) if int(e["seq"]) > v)
        assert first["seat"] == 0 and first.get("by") == "bot", events_of(watcher)
        await watcher.close()


async def test_hello_with_a_token_claimed_on_another_worker(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches",
                          {"game": "gammel_jomfru", "seats": ["me", "human"]})
        watcher = await opened(w[1].ws, made["match_id"])  # worker 1 loads the match
        claimed = await post(w[0].http, f"/api/invites/{made['invites'][0]['code']}/claim")
        await watcher.send("hello", token=claimed["token"])
        welcome = await watcher.expect("welcome")
        assert welcome["d"]["seat"] == 1 and welcome["d"]["role"] == "player"
        await watcher.close()
