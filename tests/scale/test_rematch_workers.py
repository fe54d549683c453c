""""Spil igen" across two worker processes (PostgreSQL + Redis), issue 27: two seats of
a finished table, their sockets on different workers, both say yes at the same moment
and land at the same new table (the offer lives in the database, tables/rematch.py);
every socket of the old table on either worker is told who is coming along; asking
again on the other worker gives the same seat and token; the new tokens open their
seats on either worker."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
import pytest
from tests.scale.cluster import cluster, opened
from tests.server.live import Client, play_randomly
from tests.services import Postgres, Redis

pytestmark = pytest.mark.services
GAME = "gammel_jomfru"


async def told_rematch(c: Client, accepted: list[int], timeout: float) -> dict[str, Any]:
    """Read the socket until a ``seats`` message shows the rematch with ``accepted``."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no seats message with the rematch came"
        msg = json.loads(await asyncio.wait_for(c.conn.recv(), left))
        offer = msg["d"].get("rematch") if msg["t"] == "seats" else None
        if offer is not None and offer["accepted"] == accepted:
            return dict(offer)


async def test_two_seats_on_two_workers_meet_at_one_new_table(
        postgres: Postgres, redis_server: Redis, pg_url: str) -> None:
    with cluster(postgres, redis_server, pg_url) as w:
        async with httpx.AsyncClient(timeout=30) as http:
            a_id = (await http.post(f"{w[0].http}/api/players")).json()["player_id"]
            b_id = (await http.post(f"{w[0].http}/api/players")).json()["player_id"]
            r = await http.post(f"{w[0].http}/api/matches", json={
                "game": GAME, "player": a_id, "seats": ["me", "human", {"bot": "random"}]})
            assert r.status_code == 201, r.text
            made = r.json()
            mid = made["match_id"]
            r = await http.post(f"{w[0].http}/api/invites/{made['invites'][0]['code']}/claim",
                                json={"player": b_id})
            assert r.status_code == 200, r.text
            b_token = r.json()["token"]

            a = await opened(w[0].ws, mid, made["token"])  # seat 0 on worker 0
            b = await opened(w[1].ws, mid, b_token)  # seat 1 on worker 1
            await asyncio.wait_for(asyncio.gather(
                play_randomly(a, random.Random(1)), play_randomly(b, random.Random(2))), 60)
            watch = [await opened(w[i].ws, mid) for i in (0, 1)]  # a spectator on each

            # Both say yes at once, on different workers: one new table.
            await asyncio.gather(a.send("rematch"), b.send("rematch"))
            yes_a, yes_b = await asyncio.gather(a.expect("rematch"), b.expect("rematch"))
            new = yes_a["d"]["match_id"]
            assert yes_b["d"]["match_id"] == new != mid
            assert (yes_a["d"]["seat"], yes_b["d"]["seat"]) == (0, 1)
            for c in watch:  # every socket of the old table, on either worker, is told
                assert await told_rematch(c, [0, 1], timeout=5) == {
                    "match_id": new, "accepted": [0, 1]}
            for worker in w:
                info = (await http.get(f"{worker.http}/api/matches/{new}")).json()
                assert info["status"] == "running" and info["game"] == GAME
                assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
                assert all(s["claimed"] for s in info["seats"])
                old = (await http.get(f"{worker.http}/api/matches/{mid}")).json()
                assert old["rematch"] == {"match_id": new, "accepted": [0, 1]}

            # Asking again on the other worker: the same seat and token.
            a2 = await opened(w[1].ws, mid, made["token"])
            await a2.send("rematch")
            again = await a2.expect("rematch")
            assert again["d"] == yes_a["d"]

            # The new tokens open their seats on either worker.
            for base, yes, seat in ((w[1].ws, yes_a, 0), (w[0].ws, yes_b, 1)):
                c = await Client.open(base, new, yes["d"]["token"])
                assert (await c.expect("welcome"))["d"]["seat"] == seat
                await c.close()
            for c in (a, b, a2, *watch):
                await c.close()
