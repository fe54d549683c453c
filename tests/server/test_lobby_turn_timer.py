"""The lobby's turn-timer choice (issue 27): "Hurtigt spil" opens a public table with
the chosen turn timer, the lobby lists each table's timer, quick match seats a player
only at a table with the same timer, and a bad timer is refused and opens nothing."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from tests.server.live import LiveServer, settings_for

GAME = "gammel_jomfru"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "lobby_timer.db"
    live = LiveServer(settings_for(str(db))).start()
    yield live
    live.stop()


@pytest.fixture
async def http(server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as client:
        yield client


async def guest(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    player = (await http.post("/api/players")).json()["player_id"]
    h = {"X-Player": player}
    r = await http.put("/api/me/name", json={"name": f"{name} {time.time_ns() % 10**6}"},
                       headers=h)
    assert r.status_code == 200, r.text
    return h


async def quick(http: httpx.AsyncClient, h: dict[str, str], **extra: Any) -> dict[str, Any]:
    r = await http.post("/api/quick", json={"game": GAME, "seats": 3, "flags": {}, **extra},
                        headers=h)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def lobby(http: httpx.AsyncClient) -> dict[str, dict[str, Any]]:
    return {t["match_id"]: t for t in (await http.get("/api/lobby")).json()["tables"]}


async def test_quick_match_opens_and_lists_the_chosen_turn_timer(
        http: httpx.AsyncClient) -> None:
    a = await guest(http, "Tid A")
    timed = await quick(http, a, turn_seconds=30)
    assert timed["opened"] and timed["seat"] == 0
    info = (await http.get(f"/api/matches/{timed['match_id']}")).json()
    assert info["turn_seconds"] == 30
    tables = await lobby(http)
    assert tables[timed["match_id"]]["turn_seconds"] == 30

    # No timer chosen: not seated at the 30 s table, a table of its own without one.
    b = await guest(http, "Tid B")
    untimed = await quick(http, b)
    assert untimed["opened"] and untimed["match_id"] != timed["match_id"]
    assert (await lobby(http))[untimed["match_id"]]["turn_seconds"] is None
    # 30 s chosen: the 30 s table.
    c = await guest(http, "Tid C")
    joined = await quick(http, c, turn_seconds=30)
    assert joined["match_id"] == timed["match_id"] and not joined["opened"]
    # 1 minute chosen: neither.
    d = await guest(http, "Tid D")
    minute = await quick(http, d, turn_seconds=60)
    assert minute["opened"] and minute["match_id"] not in (timed["match_id"],
                                                           untimed["match_id"])
    assert (await lobby(http))[minute["match_id"]]["turn_seconds"] == 60

    # A bad timer is refused with a clear error and opens no table.
    before = set(await lobby(http))
    e = await guest(http, "Tid E")
    for bad, status in ((5, 400), (601, 400), ("30", 422), (True, 422), (30.5, 422)):
        r = await http.post("/api/quick", json={"game": GAME, "seats": 3, "flags": {},
                                                "turn_seconds": bad}, headers=e)
        assert r.status_code == status, (bad, r.text)
        assert r.json()["detail"]["code"] == "bad_request", r.text
    assert set(await lobby(http)) == before
