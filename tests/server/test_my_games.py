""""Dine spil" from the server (issue 27): a signed-in player's games on any device —
running and finished, result, place, the others at the table — and the account's seat
opened on a second device by its sign-in alone (``hello {"account": true}``)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets
from tests.server.live import Client, LiveServer, create

from spillebord import bots, games

COOKIE = "spillebord_session"
PASSWORD = "Blåbær-Kage 7 af tårnet"
TABLE = next(k for k in list(games.keys())
             if not games.load(k).is_solitaire and bots.levels(k))
SOLO = next(k for k in list(games.keys()) if games.load(k).is_solitaire)


async def next_of(ws: Any, t: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["t"] == t:
            return msg


async def test_my_games_follow_the_account_to_another_device(server: LiveServer) -> None:
    name = f"Konto{time.time_ns() % 10**9}"
    async with httpx.AsyncClient(base_url=server.http) as first:
        r = await first.post("/api/account", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        level = bots.default_level(TABLE)
        n = games.load(TABLE).seat_counts[0]
        r = await first.post("/api/matches", json={
            "game": TABLE, "seats": ["me", *[{"level": level}] * (n - 1)]})
        table = r.json()
        r = await first.post("/api/matches", json={"game": SOLO})
        solo = r.json()
        signed = {"Cookie": f"{COOKIE}={first.cookies[COOKIE]}"}
    # The solitaire ends (resigned) on the first device (an account's seat: signed in).
    c = Client(await websockets.connect(
        f"{server.ws}/ws/{solo['match_id']}?token={solo['token']}", additional_headers=signed))
    await c.expect("welcome")
    await c.until(lambda s: bool(s["legal"]))
    await c.send("act", action="resign")
    await c.until(lambda s: s["outcome"] is not None)
    await c.close()
    # A fresh device: no token, no localStorage — only the sign-in.
    async with httpx.AsyncClient(base_url=server.http) as other:
        assert (await other.get("/api/me/games")).status_code == 401
        r = await other.post("/api/session", json={"name": name, "password": PASSWORD},
                             headers={"X-Forwarded-For": "10.9.8.7"})
        assert r.status_code == 200, r.text
        r = await other.get("/api/me/games")
        assert r.status_code == 200, r.text
        listed = {g["match_id"]: g for g in r.json()["games"]}
        cookie = other.cookies[COOKIE]
    assert set(listed) == {table["match_id"], solo["match_id"]}
    t, s = listed[table["match_id"]], listed[solo["match_id"]]
    assert t["status"] == "running" and t["result"] is None and t["seat"] == 0
    assert t["play_url"] == f"/play/{table['match_id']}#account" and t["replay_url"] is None
    assert len(t["opponents"]) == n - 1
    assert all(o["kind"] == "bot" and o["level"] == level for o in t["opponents"])
    assert s["status"] == "finished" and s["result"] == "lost"
    assert s["replay_url"] == f"/replay/{solo['match_id']}"
    # The running table opens on the new device by the account's sign-in alone ...
    url = f"{server.ws}/ws/{table['match_id']}"
    async with websockets.connect(url, additional_headers={
            "Cookie": f"{COOKIE}={cookie}"}) as ws:
        await next_of(ws, "welcome")
        await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"account": True}}))
        assert (await next_of(ws, "welcome"))["d"]["seat"] == 0
    # ... and not without it.
    async with websockets.connect(url) as ws:
        await next_of(ws, "welcome")
        await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"account": True}}))
        assert (await next_of(ws, "error"))["d"]["code"] == "sign_in_needed"


async def test_an_account_without_a_seat_gets_no_seat(server: LiveServer) -> None:
    made = await create(server.http, game=SOLO)
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/account", json={"name": f"Ingen{time.time_ns() % 10**9}",
                                                  "password": PASSWORD})
        assert r.status_code == 201, r.text
        cookie = http.cookies[COOKIE]
    async with websockets.connect(f"{server.ws}/ws/{made['match_id']}",
                                  additional_headers={"Cookie": f"{COOKIE}={cookie}"}) as ws:
        await next_of(ws, "welcome")
        await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"account": True}}))
        assert (await next_of(ws, "error"))["d"]["code"] == "no_seat"


async def test_a_guests_games_come_by_its_guest_id(server: LiveServer) -> None:
    """A guest's "Dine spil" gets from the server what its browser cannot know — the
    result, the others at the table — by its ``X-Player`` id; its seats open by the
    token the browser keeps (no ``#account``).  An account's id without its sign-in gets
    nothing, and no id nothing.  Failed before: 401 for every guest."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        guest = (await http.post("/api/players")).json()["player_id"]
        as_guest = {"X-Player": guest}
        level = bots.default_level(TABLE)
        n = games.load(TABLE).seat_counts[0]
        r = await http.post("/api/matches", headers=as_guest, json={
            "game": TABLE, "seats": ["me", *[{"level": level}] * (n - 1)]})
        table = r.json()
        r = await http.get("/api/me/games", headers=as_guest)
        assert r.status_code == 200, r.text
        assert r.json()["player_id"] == guest
        [listed] = r.json()["games"]
        assert listed["match_id"] == table["match_id"] and listed["status"] == "running"
        assert listed["play_url"] == f"/play/{table['match_id']}"
        assert [o["level"] for o in listed["opponents"]] == [level] * (n - 1)
        # another guest sees its own (none), not this one's
        other = (await http.post("/api/players")).json()["player_id"]
        r = await http.get("/api/me/games", headers={"X-Player": other})
        assert r.status_code == 200 and r.json()["games"] == []
        # no player: nothing
        r = await http.get("/api/me/games")
        assert r.status_code == 401 and r.json()["detail"]["code"] == "no_player"
        # an account's id without its sign-in: nothing
        r = await http.post("/api/account", json={"name": f"Gæst{time.time_ns() % 10**9}",
                                                  "password": PASSWORD}, headers=as_guest)
        assert r.status_code == 201, r.text
    async with httpx.AsyncClient(base_url=server.http) as fresh:
        r = await fresh.get("/api/me/games", headers=as_guest)
        assert r.status_code == 401 and r.json()["detail"]["code"] == "sign_in_needed"
