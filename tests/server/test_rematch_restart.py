""""Spil igen" survives a restart (issue 27: the offer lives in the database,
tables/rematch.py): a seat says yes, the server restarts on the same database, the
other seat's page shows who is coming along as soon as it opens and its yes lands at the
same new table, and the first seat asking again gets the very same token."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
from tests.server.live import Client, LiveServer, create, play_randomly, settings_for

GAME = "gammel_jomfru"


async def test_the_rematch_survives_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "rematch.db")
    first = LiveServer(settings_for(db)).start()
    try:
        async with httpx.AsyncClient(base_url=first.http, timeout=30) as http:
            b_id = (await http.post("/api/players")).json()["player_id"]
            made = await create(first.http, game=GAME,
                                seats=["me", "human", {"bot": "random"}])
            claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                       json={"player": b_id})).json()
        mid = made["match_id"]
        a = await Client.open(first.ws, mid, made["token"])
        b = await Client.open(first.ws, mid, claimed["token"])
        await asyncio.gather(play_randomly(a, random.Random(5)),
                             play_randomly(b, random.Random(6)))
        await a.send("rematch")
        yes_a = (await a.expect("rematch"))["d"]
        await a.close()
        await b.close()
    finally:
        first.stop()

    later = LiveServer(settings_for(db)).start()
    try:
        b = await Client.open(later.ws, mid, claimed["token"])
        welcome = await b.expect("welcome")
        assert welcome["d"]["match"]["rematch"] == {"match_id": yes_a["match_id"],
                                                    "accepted": [0]}
        await b.send("rematch")
        yes_b = (await b.expect("rematch"))["d"]
        assert yes_b["match_id"] == yes_a["match_id"] and yes_b["seat"] == 1
        a = await Client.open(later.ws, mid, made["token"])
        await a.expect("welcome")
        await a.send("rematch")
        assert (await a.expect("rematch"))["d"] == yes_a
        c = await Client.open(later.ws, yes_a["match_id"], yes_a["token"])
        assert (await c.expect("welcome"))["d"]["seat"] == 0
        for client in (a, b, c):
            await client.close()
    finally:
        later.stop()
