"""Every seat change reaches every socket of the game as a ``seats`` message (issue 26),
on the real app with real WebSockets: bots filling a public table's open seats after
its wait, a lobby seat taken, an invite claimed.  (Before issue 26 only the invite sent
one: the host of a table that bots filled saw nothing, while the API said "bot".)"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from tests.server.live import Client, LiveServer, settings_for

GAME = "gammel_jomfru"
Seats = list[dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "seats.db"
    live = LiveServer(settings_for(str(db), min_fill=1)).start()
    yield live
    live.stop()


@pytest.fixture
async def http(server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


async def guest(http: httpx.AsyncClient, base: str, name: str) -> dict[str, str]:
    player = (await http.post(f"{base}/api/players")).json()["player_id"]
    h = {"X-Player": player}
    r = await http.put(f"{base}/api/me/name", json={"name": f"{name} {time.time_ns() % 10**7}"},
                       headers=h)
    assert r.status_code == 200, r.text
    return h


async def seated(base: str, match_id: str, token: str) -> Client:
    c = await Client.open(base, match_id, token)
    await c.expect("welcome")
    await c.expect("state")
    return c


async def told_seats(c: Client, pred: Callable[[Seats], bool], timeout: float) -> Seats:
    """The first ``seats`` message (already read or coming) that satisfies ``pred``."""
    deadline = time.monotonic() + timeout
    while True:
        for seats in c.seat_updates:
            if pred(seats):
                return seats
        left = deadline - time.monotonic()
        assert left > 0, f"no such seats message; got {c.seat_updates}"
        try:
            await c.recv(left)
        except TimeoutError:
            continue


def bots_in(seats: Seats) -> bool:
    return all(s["kind"] == "bot" and s["claimed"] for s in seats[1:])


async def test_bots_filling_open_seats_reach_the_seated_socket(
        server: LiveServer, http: httpx.AsyncClient) -> None:
    host = await guest(http, server.http, "Fylder")
    r = await http.post("/api/matches", headers=host, json={
        "game": GAME, "seats": ["me", "human", "human"], "public": True,
        "fill_after": 1, "fill_level": 1})
    assert r.status_code == 201, r.text
    made = r.json()
    c = await seated(server.ws, made["match_id"], made["token"])
    seats = await told_seats(c, bots_in, timeout=6)
    assert [s["level"] for s in seats[1:]] == [1, 1]
    await c.close()


async def test_a_lobby_seat_taken_reaches_the_seated_socket(
        server: LiveServer, http: httpx.AsyncClient) -> None:
    host = await guest(http, server.http, "Vært")
    r = await http.post("/api/matches", headers=host, json={
        "game": GAME, "seats": ["me", "human", "human"], "public": True})
    made = r.json()
    c = await seated(server.ws, made["match_id"], made["token"])
    taker = await guest(http, server.http, "Tager")
    taken = await http.post(f"/api/lobby/{made['match_id']}/take", json={}, headers=taker)
    assert taken.status_code == 200, taken.text
    seat = taken.json()["seat"]
    seats = await told_seats(c, lambda s: s[seat]["claimed"], timeout=3)
    assert [s["claimed"] for s in seats].count(True) == 2
    await c.close()


async def test_an_invite_claimed_reaches_the_seated_socket(
        server: LiveServer, http: httpx.AsyncClient) -> None:
    host = await guest(http, server.http, "Inviterer")
    r = await http.post("/api/matches", headers=host,
                        json={"game": GAME, "seats": ["me", "human"]})
    made = r.json()
    c = await seated(server.ws, made["match_id"], made["token"])
    code = {i["seat"]: i["code"] for i in made["invites"]}[1]
    claimed = await http.post(f"/api/invites/{code}/claim", json={})
    assert claimed.status_code == 200, claimed.text
    await told_seats(c, lambda s: s[1]["claimed"], timeout=3)
    await c.close()
