"""Open tables on two worker processes (PostgreSQL + Redis), issue 15: two players
take the last seat of a public table at the same moment, one on each worker — exactly
one gets it, the other a clear refusal, every time; the winner's seat opens on the
other worker; a table opened on one worker reaches the lobby sockets of both; bots fill
open seats exactly once."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets
from tests.scale.cluster import cluster, opened, post
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services
GAME = "gammel_jomfru"


async def guest(http: httpx.AsyncClient, base: str, name: str) -> dict[str, str]:
    player = (await http.post(f"{base}/api/players")).json()["player_id"]
    r = await http.put(f"{base}/api/me/name", json={"name": name},
                       headers={"X-Player": player})
    assert r.status_code == 200, r.text
    return {"X-Player": player}


async def test_last_seat_race_across_two_workers(postgres: Postgres, redis_server: Redis,
                                                 pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url, SPILLEBORD_LOBBY_POLL="0.05") as w:
        async with httpx.AsyncClient(timeout=30) as http, \
                websockets.connect(f"{w[1].ws}/ws/lobby") as lobby1, \
                websockets.connect(f"{w[0].ws}/ws/lobby") as lobby0:
            for sock in (lobby0, lobby1):
                assert json.loads(await sock.recv())["t"] == "lobby"

            async def told(sock: Any, match_id: str, kind: str) -> float:
                start = time.monotonic()
                while True:
                    msg = json.loads(await asyncio.wait_for(sock.recv(), 10))
                    if msg["t"] == kind and msg["d"]["match_id"] == match_id:
                        return time.monotonic() - start

            for round_ in range(8):
                made_on = w[round_ % 2]
                host = await guest(http, made_on.http, f"Vært {round_} {time.time_ns() % 10**6}")
                r = await http.post(f"{made_on.http}/api/matches", headers=host,
                                    json={"game": GAME, "seats": ["me", "human"],
                                          "public": True})
                assert r.status_code == 201, r.text
                match_id = r.json()["match_id"]
                # The new table reaches the lobby sockets of both workers.
                waits = await asyncio.gather(told(lobby0, match_id, "table"),
                                             told(lobby1, match_id, "table"))
                assert max(waits) < 2.0, waits
                a = await guest(http, w[1].http, f"A {round_} {time.time_ns() % 10**6}")
                b = await guest(http, w[0].http, f"B {round_} {time.time_ns() % 10**6}")
                answers = await asyncio.gather(
                    http.post(f"{w[0].http}/api/lobby/{match_id}/take", json={}, headers=a),
                    http.post(f"{w[1].http}/api/lobby/{match_id}/take", json={}, headers=b))
                codes = [x.status_code for x in answers]
                assert sorted(codes) == [200, 409], [x.text for x in answers]
                lost = answers[codes.index(409)].json()["detail"]
                assert lost["code"] in ("table_full", "seat_taken") and lost["reason"]
                won = codes.index(200)
                # The winner's token plays the seat on the *other* worker.
                c = await opened(w[1 - won].ws, match_id, answers[won].json()["token"])
                assert c.seen[0]["d"]["seat"] == 1
                await c.close()
                info = (await http.get(f"{w[1 - won].http}/api/matches/{match_id}")).json()
                assert [s["claimed"] for s in info["seats"]] == [True, True]
                # The full table leaves both lobbies.
                await asyncio.gather(told(lobby0, match_id, "gone"),
                                     told(lobby1, match_id, "gone"))


async def test_bots_fill_once_with_two_workers(postgres: Postgres, redis_server: Redis,
                                               pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        made = await post(w[0].http, "/api/matches",
                          {"game": GAME, "seats": ["me", "human", "human"],
                           "public": True, "fill_after": 5, "fill_level": 1})
        c = await opened(w[1].ws, made["match_id"], made["token"])
        async with httpx.AsyncClient(timeout=30) as http:
            deadline = time.monotonic() + 20
            while True:
                info = (await http.get(f"{w[1].http}/api/matches/{made['match_id']}")).json()
                if all(s["kind"] == "bot" for s in info["seats"][1:]):
                    break
                assert time.monotonic() < deadline, info
                await asyncio.sleep(0.3)
            # The bots move (on whichever worker holds the bot lease).
            await c.until(lambda s: any(e.get("by") == "bot" for m in c.seen
                                        if m["t"] == "state" for e in m["d"]["events"])
                          or s["outcome"] is not None or bool(s["legal"]), timeout=30)
        await c.close()
        logs = w[0].output() + w[1].output()
        assert logs.count("bots at level") <= 1


async def test_a_change_reaches_the_other_workers_lobby_at_once(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    """The other worker reads the lobby's changes when the changing worker's notice
    comes over Redis, not on its slow safety poll (tables/feed.py SAFETY_POLL, 2 s): a
    table opened, taken and ended on worker 0 reaches worker 1's lobby socket well
    within a second each time."""
    with cluster(postgres, redis_server, pg_url) as w:
        async with httpx.AsyncClient(timeout=30) as http, \
                websockets.connect(f"{w[1].ws}/ws/lobby") as lobby:
            assert json.loads(await lobby.recv())["t"] == "lobby"

            async def told(match_id: str, kind: str, start: float) -> float:
                while True:
                    msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                    if msg["t"] == kind and msg["d"]["match_id"] == match_id:
                        return time.monotonic() - start

            waits = []
            for i in range(4):
                await asyncio.sleep(0.4)
                host = await guest(http, w[0].http, f"Hurtig {i} {time.time_ns() % 10**6}")
                start = time.monotonic()
                r = await http.post(f"{w[0].http}/api/matches", headers=host,
                                    json={"game": GAME, "seats": ["me", "human", "human"],
                                          "public": True})
                assert r.status_code == 201, r.text
                match_id = r.json()["match_id"]
                waits.append(await told(match_id, "table", start))
                await asyncio.sleep(0.4)
                taker = await guest(http, w[0].http, f"Tager {i} {time.time_ns() % 10**6}")
                start = time.monotonic()
                taken = await http.post(f"{w[0].http}/api/lobby/{match_id}/take", json={},
                                        headers=taker)
                assert taken.status_code == 200, taken.text
                while True:  # the same table with one seat fewer free
                    msg = json.loads(await asyncio.wait_for(lobby.recv(), 10))
                    if msg["t"] == "table" and msg["d"]["match_id"] == match_id \
                            and msg["d"]["free"] == 1:
                        break
                waits.append(time.monotonic() - start)
            assert max(waits) < 1.0, waits
