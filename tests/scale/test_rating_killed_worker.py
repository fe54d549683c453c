"""A rated game and a SIGKILLed worker (issue 15: "a game that ends while a worker is
killed still updates exactly once"), on real PostgreSQL and Redis with two workers,
seen only through HTTP and the sockets.

1. Two signed-in named players play Gammel Jomfru on worker 0; it is SIGKILLed in the
   middle of the game; both reconnect to worker 1, finish there, and the game is rated
   once.  Worker 0 comes back and sweeps too: still once.
2. A second game on worker 0, killed the moment the game's end is shown (whether or not
   it rated it before it died): rated once, also after worker 0 is back.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from tests.scale.cluster import cluster, reconnect, resync
from tests.server.live import Client
from tests.server.test_ratings import account
from tests.services import Postgres, Redis, Worker
from websockets.exceptions import ConnectionClosed

from spillebord.server.infra.storage.models import rated_matches, rating_history

pytestmark = pytest.mark.services
GAME = "gammel_jomfru"

async def table(a: httpx.AsyncClient, b: httpx.AsyncClient) -> tuple[str, list[str]]:
    made = (await a.post("/api/matches", json={"game": GAME, "seats": ["me", "human"]})).json()
    claimed = (await b.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                            json={})).json()
    return made["match_id"], [made["token"], claimed["token"]]


async def play(bases: list[str], mid: str, token: str, rng: random.Random, deadline: float,
               drops: list[int], ended: asyncio.Event,
               signed: httpx.AsyncClient) -> dict[str, Any]:
    """Play the seat to the end on ``bases[0]``; on a dropped socket go on from
    ``bases[1]``, asking for what was missed (``sync`` from the last version seen)."""
    # an account's seat opens to a socket signed in as the account (issue 27)
    c = await Client.open(bases[0], mid, token, signed=signed)
    await c.expect("welcome")
    await resync(c, 0)
    while True:
        try:
            st = await c.until(lambda s: s["outcome"] is not None or bool(s["legal"]),
                               timeout=max(1.0, deadline - time.monotonic()))
            if st["outcome"] is not None:
                ended.set()
                await c.close()
                return st
            v0 = c.version
            calm = [a for a in st["legal"] if a != "resign"]
            await c.send("act", action=rng.choice(calm or st["legal"]))
            await c.until(lambda s, v0=v0, c=c: c.version > v0 or s["outcome"] is not None,
                          timeout=30)
        except (ConnectionClosed, OSError):
            drops.append(1)
            assert len(drops) <= 4, "reconnected too often"
            c = await reconnect(bases[1], c, mid, token, signed)


async def rated_once(http: httpx.AsyncClient, pids: list[str], mid: str,
                     wait: float = 20.0) -> None:
    """Both players' histories hold ``mid`` exactly once (waiting up to ``wait`` s for
    the first sight of it)."""
    deadline = time.monotonic() + wait
    for pid in pids:
        while True:
            got = (await http.get(f"/api/players/{pid}/ratings")).json()
            seen = [h for h in got["history"] if h["match_id"] == mid]
            if seen:
                assert len(seen) == 1, got
                break
            assert time.monotonic() < deadline, f"{mid} not rated for {pid}: {got}"
            await asyncio.sleep(0.3)


def stored(pg_url: str, mid: str) -> tuple[int, int]:
    """(rating history rows, rated marks) the database holds for ``mid``."""
    engine = create_engine(pg_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(func.count()).select_from(rating_history)
                                .where(rating_history.c.match_id == mid)).scalar_one()
            marks = conn.execute(select(func.count()).select_from(rated_matches)
                                 .where(rated_matches.c.match_id == mid)).scalar_one()
    finally:
        engine.dispose()
    return int(rows), int(marks)


async def back_and_swept(w0: Worker, http: httpx.AsyncClient, pids: list[str],
                         pg_url: str, mids: list[str]) -> None:
    """Worker 0 restarts (its sweeper runs every second); nothing is rated twice."""
    w0.start()
    await asyncio.sleep(3.0)
    for mid in mids:
        await rated_once(http, pids, mid, wait=0)
        assert stored(pg_url, mid) == (2, 1)


async def test_rated_game_survives_a_killed_worker(postgres: Postgres, redis_server: Redis,
                                                   pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        bases = [w[0].ws, w[1].ws]
        a, pa = await account(w[0].http, "Kasia Dræbt")
        b, pb = await account(w[0].http, "Bodil Dræbt")
        watch = httpx.AsyncClient(base_url=w[1].http, timeout=30)
        try:
            # 1. Killed in the middle; finished on worker 1.
            mid, tokens = await table(a, b)
            drops: list[int] = []
            ended = asyncio.Event()
            deadline = time.monotonic() + 120
            players = [asyncio.create_task(play(bases, mid, t, random.Random(i), deadline,
                                                drops, ended, who))
                       for i, (t, who) in enumerate(zip(tokens, (a, b), strict=True))]
            while (await watch.get(f"/api/matches/{mid}")).json()["version"] < 6:
                assert time.monotonic() < deadline - 100, "the game did not start"
                await asyncio.sleep(0.05)
            assert not ended.is_set()
            w[0].kill()
            finals = await asyncio.wait_for(asyncio.gather(*players), 110)
            assert len(drops) == 2, "both players were on the killed worker"
            assert finals[0]["outcome"] == finals[1]["outcome"] is not None
            info = (await watch.get(f"/api/matches/{mid}")).json()
            assert info["version"] > 6
            await rated_once(watch, [pa, pb], mid)
            assert stored(pg_url, mid) == (2, 1)
            await back_and_swept(w[0], watch, [pa, pb], pg_url, [mid])

            # 2. Killed the moment the end is shown.
            mid2, tokens2 = await table(a, b)
            ended2 = asyncio.Event()
            drops2: list[int] = []
            players = [asyncio.create_task(play(bases, mid2, t, random.Random(10 + i),
                                                time.monotonic() + 120, drops2, ended2, who))
                       for i, (t, who) in enumerate(zip(tokens2, (a, b), strict=True))]
            await asyncio.wait_for(ended2.wait(), 120)
            w[0].kill()
            await asyncio.wait_for(asyncio.gather(*players), 60)
            await rated_once(watch, [pa, pb], mid2)
            assert stored(pg_url, mid2) == (2, 1)
            await back_and_swept(w[0], watch, [pa, pb], pg_url, [mid, mid2])
            for pid in (pa, pb):
                got = (await watch.get(f"/api/players/{pid}/ratings")).json()
                assert [r["games"] for r in got["ratings"]] == [2]
        finally:
            for http in (a, b, watch):
                await http.aclose()
