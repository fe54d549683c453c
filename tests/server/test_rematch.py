""""Spil igen" (issue 27): at the end of a table game every human seat is offered a
rematch; the seats that accept move together to a new table with the same seats and a
fresh sealed deal (server/rematch.py)."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, play_randomly

GAME = "gammel_jomfru"


async def test_the_seats_that_accept_move_to_a_new_table_with_a_fresh_deal(
        server: LiveServer) -> None:
    mid, a, b = await two_seats(server)
    # Not before the end.
    await a.expect("welcome")
    await a.send("rematch")
    assert (await a.expect("error"))["d"]["code"] == "not_over"
    await b.expect("welcome")
    await asyncio.gather(play_randomly(a, random.Random(1)), play_randomly(b, random.Random(2)))
    old = (await http_get(server, f"/api/matches/{mid}"))
    assert old["status"] == "finished" and old["rematch"] is None
    # Seat 0 says yes: the new table opens, seat 0 sits there at once.
    await a.send("rematch")
    first = await a.expect("rematch")
    new = first["d"]["match_id"]
    assert new != mid and first["d"]["seat"] == 0 and first["d"]["token"]
    info = await http_get(server, f"/api/matches/{new}")
    assert info["status"] == "running" and info["game"] == GAME
    assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
    assert info["seats"][2]["bot"] == "random"
    assert info["seats"][0]["claimed"] and not info["seats"][1]["claimed"]
    assert info["fair"]["commitment"] != old["fair"]["commitment"]
    assert (await http_get(server, f"/api/matches/{mid}"))["rematch"] == {
        "match_id": new, "accepted": [0]}
    # Seat 1 says yes too: the same new table, its own seat; asking twice is the same seat.
    await b.send("rematch")
    second = await b.expect("rematch")
    assert second["d"]["match_id"] == new and second["d"]["seat"] == 1
    await b.send("rematch")
    assert (await b.expect("rematch"))["d"]["token"] == second["d"]["token"]
    people = await http_get(server, f"/api/matches/{new}")
    assert all(s["claimed"] for s in people["seats"])
    # The new tokens open the new seats; the player ids came along.
    c = await Client.open(server.ws, new, second["d"]["token"])
    assert (await c.expect("welcome"))["d"]["seat"] == 1
    await c.close()
    # A spectator cannot.
    w = await Client.open(server.ws, mid)
    await w.expect("welcome")
    await w.send("rematch")
    assert (await w.expect("error"))["d"]["code"] == "spectator"
    for client in (a, b, w):
        await client.close()


async def two_seats(server: LiveServer) -> tuple[str, Client, Client]:
    """A Gammel Jomfru table of two players (the creator and an invitee) and a random bot;
    the match and the two seats' sockets."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        a_id = (await http.post("/api/players")).json()["player_id"]
        b_id = (await http.post("/api/players")).json()["player_id"]
        made = await create(server.http, game=GAME, player=a_id,
                            seats=["me", "human", {"bot": "random"}])
        claimed = (await http.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                   json={"player": b_id})).json()
    mid = made["match_id"]
    a = await Client.open(server.ws, mid, made["token"])
    b = await Client.open(server.ws, mid, claimed["token"])
    return mid, a, b


async def http_get(server: LiveServer, path: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        out: dict[str, Any] = (await http.get(path)).json()
        return out


async def test_an_older_read_of_the_offer_never_replaces_a_newer_one(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """CI saw a finished table show ``accepted [0]`` after both seats had come along: a
    socket's read of the offer (seat 0 only) ended after the read of seat 1's yes, and
    the room went back.  Here a spectator's read is held after it read, seat 1 says yes,
    then the held read ends: the table still shows both seats."""
    from spillebord.server.tables import rematch_store

    mid, a, b = await two_seats(server)
    await asyncio.gather(play_randomly(a, random.Random(3)), play_randomly(b, random.Random(4)))
    await a.send("rematch")
    new = (await a.expect("rematch"))["d"]["match_id"]

    real = rematch_store.offer_of
    held, release = threading.Event(), threading.Event()
    hold = [True]

    def slow_offer_of(engine: Any, old: str) -> tuple[str, list[int]] | None:
        found = real(engine, old)
        if hold[0]:
            hold[0] = False
            held.set()
            release.wait(30)
        return found

    monkeypatch.setattr(rematch_store, "offer_of", slow_offer_of)
    watcher = asyncio.create_task(Client.open(server.ws, mid))  # its read sees seat 0 only
    assert await asyncio.to_thread(held.wait, 30)
    await b.send("rematch")
    assert (await b.expect("rematch"))["d"]["match_id"] == new
    assert (await http_get(server, f"/api/matches/{mid}"))["rematch"] == {
        "match_id": new, "accepted": [0, 1]}
    release.set()  # the old read ends now
    w = await watcher
    await w.expect("welcome")
    assert (await http_get(server, f"/api/matches/{mid}"))["rematch"] == {
        "match_id": new, "accepted": [0, 1]}
    for client in (a, b, w):
        await client.close()
