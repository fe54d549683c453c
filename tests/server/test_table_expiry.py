"""Public tables expire (issue 29, finding 6: 4 of 4 quick-match players were seated at
tables whose host never came).  Real server, real lobby socket: a table whose creator
is away leaves the lobby (``gone``) and comes back with them; quick match seats a player
only where every taken seat is present, else opens a table; a table nobody joins is
closed after its time."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets
from tests.server.live import Client, LiveServer, settings_for

from spillebord.server.infra.quotas import Limits

GAME = "gammel_jomfru"
AWAY, CLOSE = 2, 15
LIMITS = Limits(**{**Limits.off().__dict__, "table_away_seconds": AWAY,
                   "table_close_seconds": CLOSE})


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("expiry") / "expiry.db"
    server = LiveServer(settings_for(str(db), limits=LIMITS)).start()
    yield server
    server.stop()


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http, timeout=30) as client:
        yield client


async def guest(http: httpx.AsyncClient) -> dict[str, str]:
    return {"X-Player": (await http.post("/api/players")).json()["player_id"]}


async def open_table(http: httpx.AsyncClient, seats: int) -> dict[str, Any]:
    r = await http.post("/api/matches", headers=await guest(http), json={
        "game": GAME, "seats": ["me", *["human"] * (seats - 1)], "public": True})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


async def listed(http: httpx.AsyncClient, match_id: str) -> bool:
    tables = (await http.get("/api/lobby")).json()["tables"]
    return any(t["match_id"] == match_id for t in tables)


async def lobby_says(sock: Any, t: str, match_id: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(await asyncio.wait_for(sock.recv(), deadline - time.monotonic()))
        if msg["t"] == t and msg["d"]["match_id"] == match_id:
            return


async def test_a_table_leaves_the_lobby_while_its_creator_is_away(
        http: httpx.AsyncClient, live: LiveServer) -> None:
    async with websockets.connect(f"{live.ws}/ws/lobby") as lobby:
        assert json.loads(await lobby.recv())["t"] == "lobby"
        made = await open_table(http, 3)
        match_id = made["match_id"]
        await lobby_says(lobby, "table", match_id, 10)
        assert await listed(http, match_id)
        # the creator never opens the table: out of the lobby after AWAY seconds
        await lobby_says(lobby, "gone", match_id, AWAY + 10)
        assert not await listed(http, match_id)
        r = await http.post(f"/api/lobby/{match_id}/take", headers=await guest(http))
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
        # the creator comes: the table is back
        host = await Client.open(live.ws, match_id, made["token"])
        await host.expect("welcome")
        await lobby_says(lobby, "table", match_id, 10)
        assert await listed(http, match_id)
        await host.close()


async def test_quick_match_seats_players_only_where_everyone_seated_is_there(
        http: httpx.AsyncClient, live: LiveServer) -> None:
    seats = 4  # a seat count no other test uses
    absent = await open_table(http, seats)  # its host never comes
    here = await open_table(http, seats)
    host = await Client.open(live.ws, here["match_id"], here["token"])
    await host.expect("welcome")
    body = {"game": GAME, "seats": seats}
    r = await http.post("/api/quick", headers=await guest(http), json=body)
    assert r.status_code == 200, r.text
    assert r.json()["match_id"] == here["match_id"] and not r.json()["opened"]
    # the table with a present host has a seat taken by someone not (yet) connected:
    # the next player gets neither table but a new one of their own
    r = await http.post("/api/quick", headers=await guest(http), json=body)
    assert r.json()["opened"] and r.json()["match_id"] not in (absent["match_id"],
                                                                here["match_id"])
    await host.close()


@pytest.mark.slow
async def test_a_table_nobody_joins_is_closed(http: httpx.AsyncClient,
                                              live: LiveServer) -> None:
    made = await open_table(http, 5)
    match_id = made["match_id"]
    host = await Client.open(live.ws, match_id, made["token"])
    await host.expect("welcome")  # the creator stays all along
    assert await listed(http, match_id)
    deadline = time.monotonic() + CLOSE + 10
    while await listed(http, match_id):
        assert time.monotonic() < deadline, "the table was never closed"
        await asyncio.sleep(0.5)
    await asyncio.sleep(1.5)  # closed for good, though the creator is still here
    assert not await listed(http, match_id)
    info = (await http.get(f"/api/matches/{match_id}")).json()
    assert info["status"] == "running"  # the creator's own game goes on
    await host.close()
