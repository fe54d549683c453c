"""Crash proof: solitaires played as fast as the clients can on two workers; one
worker is SIGKILLed in the middle; its clients reconnect to the other worker with their
tokens and carry on; every acknowledged action is in the database, in the surviving
worker's view of the game and in the killed worker's after its restart (0 lost)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import pytest
from sqlalchemy import create_engine, select
from tests.scale.cluster import cluster, get, opened, post
from tests.server.live import Client
from tests.services import Postgres, Redis, Worker
from websockets.exceptions import ConnectionClosed

from spillebord.server.infra.storage.models import actions

pytestmark = pytest.mark.services
GAMES = ["posthus", "studenter"]


@dataclass
class Player:
    match_id: str
    token: str
    home: int
    acked: dict[int, str] = field(default_factory=dict)  # seq -> action text
    reconnects: int = 0
    after_kill: int = 0
    done: bool = False


async def drive(p: Player, workers: list[Worker], killed: asyncio.Event,
                rng: random.Random, deadline: float, after: int) -> None:
    c: Client = await opened(workers[p.home].ws, p.match_id, p.token)
    try:
        while time.monotonic() < deadline:
            st = c.state
            assert st is not None
            if st["outcome"] is not None or not st["legal"]:
                p.done = True
                return
            if killed.is_set() and p.after_kill >= after:
                return
            calm = [a for a in st["legal"] if a != "resign"] or st["legal"]
            v0, action = c.version, rng.choice(calm)
            try:
                await c.send("act", action=action)
                msg = await c.recv(15)
                assert msg["t"] == "state" and msg["v"] == v0 + 1, msg
                assert msg["d"]["events"][-1]["action"] == action
                p.acked[v0 + 1] = action
                if killed.is_set():
                    p.after_kill += 1
            except (OSError, ConnectionClosed) as exc:
                # Our worker died: reconnect to a live one with the token.
                assert killed.is_set(), f"connection lost before the kill: {exc!r}"
                p.reconnects += 1
                assert p.reconnects <= 3
                c = await opened(workers[1].ws, p.match_id, p.token)
                assert c.version >= max(p.acked, default=0), "an acknowledged action lost"
    finally:
        await c.close()


async def test_sigkill_under_load_loses_nothing_acknowledged(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        players: list[Player] = []
        for i in range(12):
            made = await post(w[i % 2].http, "/api/matches",
                              {"game": GAMES[i % 2], "seats": ["me"], "deal": 100 + i})
            players.append(Player(made["match_id"], made["token"], i % 2))
        killed = asyncio.Event()
        deadline = time.monotonic() + 60
        rng = random.Random(9)
        tasks = [asyncio.create_task(drive(p, w.items, killed, random.Random(rng.random()),
                                           deadline, after=8)) for p in players]
        t0 = time.monotonic()
        while sum(len(p.acked) for p in players) < 150 and time.monotonic() - t0 < 20:
            await asyncio.sleep(0.02)
        acked_before = sum(len(p.acked) for p in players)
        w[0].kill()  # SIGKILL in the middle of the clients' actions
        killed.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 70)
        assert acked_before >= 100
        on_killed = [p for p in players if p.home == 0 and not p.done]
        assert on_killed and all(p.reconnects == 1 for p in on_killed)
        assert all(p.after_kill >= 8 or p.done for p in players), "a game did not continue"

        # Every acknowledged action is committed, at its number.
        engine = create_engine(pg_url)
        with engine.connect() as conn:
            for p in players:
                stored = dict(conn.execute(select(actions.c.seq, actions.c.text)
                                           .where(actions.c.match_id == p.match_id)).all())
                lost = {s: t for s, t in p.acked.items() if stored.get(s) != t}
                assert not lost, f"{p.match_id} lost acknowledged actions {lost}"
        engine.dispose()

        # The killed worker comes back, reloads the games, and agrees.
        w[0].start()
        for p in players:
            r = await get(w[0].http, f"/api/matches/{p.match_id}/record",
                          Authorization=f"Bearer {p.token}")
            assert r.status_code == 200, r.text
            events = {e["seq"]: e["action"] for e in r.json()["events"]}
            assert all(events.get(s) == t for s, t in p.acked.items())
        c = await opened(w[0].ws, players[0].match_id, players[0].token)
        assert c.version >= max(players[0].acked)
        await c.close()
