"""The table's turn timer, giving up a seat, and an account's seats after "Log ud"
(issue 27; the rule in server/turns.py), over a real socket."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord import bots, games

TABLE = next(k for k in list(games.keys())
             if not games.load(k).is_solitaire and bots.levels(k))
COOKIE = "spillebord_session"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "spillebord.db"
    live = LiveServer(settings_for(str(db), min_takeover=1, min_turn=1)).start()
    yield live
    live.stop()


def seats_with_bots() -> list[Any]:
    level = bots.default_level(TABLE)
    n = games.load(TABLE).seat_counts[0]
    return ["me", *[{"level": level} for _ in range(n - 1)]]


async def info(server: LiveServer, mid: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        out: dict[str, Any] = (await http.get(f"/api/matches/{mid}")).json()
    return out


async def my_turn(c: Client) -> dict[str, Any]:
    return await c.until(lambda s: s["outcome"] is not None or s["to_move"] == 0)


async def test_turn_timer_runs_out_and_a_bot_of_the_level_plays_that_turn(
        server: LiveServer) -> None:
    made = await create(server.http, game=TABLE, seats=seats_with_bots(), turn_seconds=2)
    mid = made["match_id"]
    c = await Client.open(server.ws, mid, made["token"])
    await c.expect("welcome")
    st = await my_turn(c)
    assert st["outcome"] is None
    # The server says whose turn it is and how long is left; the page only shows it.
    assert st["turn"]["seat"] == 0 and st["turn"]["seconds"] == 2
    assert 0 < st["turn"]["left_ms"] <= 2000
    v = c.version
    waited = time.monotonic()
    st = await c.until(lambda s: c.version > v, timeout=20)
    assert time.monotonic() - waited >= 1.0  # not before the timer ran out
    ours = [e for e in c.state["events"] if e["seat"] == 0] if c.state else []
    assert ours and ours[0].get("by") == "bot", c.state
    # The seat showed it while the bot played it ...
    shown = [s[0] for s in c.seat_updates]
    assert any(s["bot_playing"] and s["bot_reason"] == "timer" for s in shown), shown
    # ... and it is still the human's seat: the next turn has a fresh timer.
    st = await my_turn(c)
    if st["outcome"] is None:
        assert st["turn"]["seat"] == 0 and st["turn"]["left_ms"] > 1000
        assert not (await info(server, mid))["seats"][0]["left"]
    await c.close()


async def test_turn_timer_is_refused_out_of_range(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        for bad in (0, 601, True, "60"):
            r = await http.post("/api/matches", json={
                "game": TABLE, "seats": seats_with_bots(), "turn_seconds": bad})
            assert r.status_code in (400, 422), (bad, r.text)
        solo = next(k for k in list(games.keys()) if games.load(k).is_solitaire)
        r = await http.post("/api/matches", json={"game": solo, "turn_seconds": 60})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_request"


async def test_no_timer_no_turn(server: LiveServer) -> None:
    made = await create(server.http, game=TABLE, seats=seats_with_bots())
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    st = await my_turn(c)
    assert "turn" not in st
    v = c.version
    await asyncio.sleep(1.5)  # nobody plays the seat
    assert (await info(server, made["match_id"]))["version"] == v
    await c.close()


async def test_giving_up_hands_the_seat_to_a_bot_for_good(server: LiveServer) -> None:
    made = await create(server.http, game=TABLE, seats=seats_with_bots())
    mid = made["match_id"]
    c = await Client.open(server.ws, mid, made["token"])
    await c.expect("welcome")
    second_tab = await Client.open(server.ws, mid, made["token"])
    await second_tab.expect("welcome")
    await my_turn(c)
    await c.send("leave")
    welcome = await c.expect("welcome")
    assert welcome["d"]["role"] == "spectator" and welcome["d"]["seat"] is None
    seat0 = welcome["d"]["match"]["seats"][0]
    assert seat0["left"] and seat0["bot_playing"] and seat0["bot_reason"] == "left"
    # The bot plays the seat from now on, every action marked as the bot's.
    st = await c.until(lambda s: s["outcome"] is not None
                       or any(e["seat"] == 0 for e in s["events"]), timeout=30)
    assert all(e.get("by") == "bot" for e in st["events"] if e["seat"] == 0)
    # A second tab still open on the seat cannot play it any more.
    st = await second_tab.until(lambda s: s["outcome"] is not None or s["to_move"] == 0,
                                timeout=60)
    if st["outcome"] is None:
        await second_tab.send("act", action="x")
        err = await second_tab.expect("error")
        assert err["d"]["code"] in ("seat_left", "stale", "not_your_turn"), err
    await second_tab.close()
    # The old token opens the seat no more (the player may watch).
    back = await Client.open(server.ws, mid)
    await back.expect("welcome")
    await back.send("hello", token=made["token"])
    err = await back.expect("error")
    assert err["d"]["code"] == "seat_left" and err["d"]["key"] == "server.seat_left"
    await back.send("leave")
    assert (await back.expect("error"))["d"]["code"] == "spectator"
    await back.close()
    await c.close()


async def test_leave_is_refused_at_a_solitaire(server: LiveServer) -> None:
    solo = next(k for k in list(games.keys()) if games.load(k).is_solitaire)
    made = await create(server.http, game=solo)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.send("leave")
    assert (await c.expect("error"))["d"]["code"] == "not_table"
    await c.close()


async def test_signed_out_account_seat_refuses_its_old_token(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        name = f"Konto{time.time_ns() % 10**9}"
        r = await http.post("/api/account", json={"name": name,
                                                  "password": "Blåbær-Kage 7 af tårnet"})
        assert r.status_code == 201, r.text
        cookie = http.cookies[COOKIE]
        r = await http.post("/api/matches", json={"game": TABLE, "seats": seats_with_bots()})
        assert r.status_code == 201, r.text
        made = r.json()
        headers = {"Cookie": f"{COOKIE}={cookie}"}
        url = f"{server.ws}/ws/{made['match_id']}?token={made['token']}"
        # Signed in: the seat is the socket's.
        async with websockets.connect(url, additional_headers=headers) as ws:
            msg = await welcome_of(ws)
            assert msg["d"]["seat"] == 0
        assert (await http.delete("/api/session")).status_code == 204
    # Signed out: the same cookie and token, or the token alone, open nothing.
    for extra in (headers, {}):
        async with websockets.connect(url, additional_headers=extra) as ws:
            msg = await welcome_of(ws)
            assert msg["d"]["seat"] is None
            err = await next_of(ws, "error")
            assert err["d"]["code"] == "sign_in_needed"


async def welcome_of(ws: Any) -> dict[str, Any]:
    return await next_of(ws, "welcome")


async def next_of(ws: Any, t: str) -> dict[str, Any]:
    import json

    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["t"] == t:
            return msg
