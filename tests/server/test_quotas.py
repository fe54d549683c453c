"""Quotas against the real server (issue 29, finding 5: one guest created 1,000 matches
at 89/s and 1,000 public tables at 49/s; guests and sockets per address had no limit).
Each quota refuses past its limit with ``429 rate_limited``, ``Retry-After`` and the
API's JSON error (a socket: an ``error`` message ``rate_limited`` with ``ref``), counts
per player and per address separately, and refuses nothing else."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import websockets
from tests.server.live import LiveServer, settings_for

from spillebord.server.infra.quotas import Limits

GAME = "gammel_jomfru"
LIMITS = Limits(matches_per_minute=3, matches_per_minute_address=5, matches_live=4,
                matches_live_address=100, tables_per_minute=2, tables_per_minute_address=100,
                tables_live=100, tables_live_address=100, bot_rooms_live=1,
                bot_rooms_live_address=100, guests_per_hour_address=3,
                signups_per_hour_address=2, signins_per_minute_address=3, sockets_address=3,
                lesson_moves_per_minute_address=3, analyses_per_minute_address=2,
                analyses_waiting=100)
_address = itertools.count(1)


def new_address() -> dict[str, str]:
    """Each test comes from its own client address (the tests stand in for the proxy)."""
    n = next(_address)
    return {"X-Forwarded-For": f"10.29.{n // 250}.{n % 250 + 1}"}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("quotas") / "quotas.db"
    server = LiveServer(settings_for(str(db), limits=LIMITS, argon2_memory_kib=8192)).start()
    yield server
    server.stop()


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http, timeout=30) as client:
        yield client


def assert_limited(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    detail: dict[str, Any] = r.json()["detail"]
    assert detail["code"] == "rate_limited" and detail["reason"]
    assert int(r.headers["Retry-After"]) == detail["retry_after"] >= 1
    return detail


async def guest(http: httpx.AsyncClient, where: dict[str, str]) -> dict[str, str]:
    r = await http.post("/api/players", headers=where)
    assert r.status_code == 201, r.text
    return {**where, "X-Player": r.json()["player_id"]}


async def create(http: httpx.AsyncClient, h: dict[str, str], **body: Any) -> httpx.Response:
    return await http.post("/api/matches", headers=h,
                           json={"game": "studenter", **body})


async def test_matches_per_minute_per_player_and_per_address(
        http: httpx.AsyncClient, live: LiveServer) -> None:
    where = new_address()
    alice = await guest(http, where)
    for _ in range(LIMITS.matches_per_minute):
        assert (await create(http, alice)).status_code == 201
    before = len(live.services.rooms.sessions)
    detail = assert_limited(await create(http, alice))
    assert detail["key"] == "server.rate_limited"
    assert len(live.services.rooms.sessions) == before  # nothing made
    # Another player at the same address still may, up to the address's limit ...
    bob = await guest(http, where)
    for _ in range(LIMITS.matches_per_minute_address - LIMITS.matches_per_minute):
        assert (await create(http, bob)).status_code == 201
    assert_limited(await create(http, bob))
    # ... and a player elsewhere is not touched by either.
    carol = await guest(http, new_address())
    assert (await create(http, carol)).status_code == 201


async def test_public_tables_per_minute(http: httpx.AsyncClient) -> None:
    h = await guest(http, new_address())
    body = {"game": GAME, "seats": ["me", "human", "human"], "public": True}
    for _ in range(LIMITS.tables_per_minute):
        assert (await create(http, h, **body)).status_code == 201
    assert_limited(await create(http, h, **body))


LIVE = Limits(**{**Limits.off().__dict__, "matches_live": 2, "matches_live_address": 3,
                 "tables_live": 1, "bot_rooms_live": 1})


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose only quotas are the live counts."""
    db = tmp_path_factory.mktemp("live") / "live.db"
    server = LiveServer(settings_for(str(db), limits=LIVE)).start()
    yield server
    server.stop()


async def test_matches_live_at_once_per_player_and_address(counted: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=counted.http, timeout=30) as http:
        where = new_address()
        alice = await guest(http, where)
        for _ in range(LIVE.matches_live):
            assert (await create(http, alice)).status_code == 201
        detail = assert_limited(await create(http, alice))
        assert detail["key"] == "server.too_many_matches" and detail["params"]["max"] == "2"
        bob = await guest(http, where)
        assert (await create(http, bob)).status_code == 201  # the address's third
        assert assert_limited(await create(http, bob))["params"]["max"] == "3"
        carol = await guest(http, new_address())
        assert (await create(http, carol)).status_code == 201


async def test_public_tables_live_at_once(counted: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=counted.http, timeout=30) as http:
        h = await guest(http, new_address())
        body = {"game": GAME, "seats": ["me", "human", "human"], "public": True}
        assert (await create(http, h, **body)).status_code == 201
        detail = assert_limited(await create(http, h, **body))
        assert detail["key"] == "server.too_many_tables"
        # quick match that must open a table is refused the same way
        r = await http.post("/api/quick", headers=h, json={"game": GAME, "seats": 5})
        assert assert_limited(r)["key"] == "server.too_many_tables"
        # a private table is not a public one
        assert (await create(http, h, game=GAME, seats=["me", "human"])).status_code == 201


async def test_bots_only_rooms_per_creator_until_one_ends(counted: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=counted.http, timeout=30) as http:
        h = await guest(http, new_address())
        room = {"game": GAME, "seats": [{"bot": "random"}] * 3}
        first = await create(http, h, **room)
        assert first.status_code == 201
        detail = assert_limited(await create(http, h, **room))
        assert detail["key"] == "server.too_many_bot_rooms" and detail["params"]["max"] == "1"
        other = await guest(http, new_address())  # another creator is not held back
        assert (await create(http, other, **room)).status_code == 201
        # random bots with no delay finish the first room: its place comes back
        match_id = first.json()["match_id"]
        for _ in range(300):
            info = (await http.get(f"/api/matches/{match_id}")).json()
            if info["status"] != "running":
                break
            await asyncio.sleep(0.1)
        assert info["status"] != "running", info
        assert (await create(http, h, **room)).status_code == 201


async def test_guests_per_address_per_hour(http: httpx.AsyncClient) -> None:
    where = new_address()
    for _ in range(LIMITS.guests_per_hour_address):
        assert (await http.post("/api/players", headers=where)).status_code == 201
    detail = assert_limited(await http.post("/api/players", headers=where))
    assert detail["retry_after"] > 60  # an hour's window
    assert (await http.post("/api/players", headers=new_address())).status_code == 201


async def test_sign_ups_and_sign_ins_per_address(http: httpx.AsyncClient) -> None:
    where = new_address()
    tag = where["X-Forwarded-For"].replace(".", "x")
    password = "Rødgrød med fløde 42"
    for i in range(LIMITS.signups_per_hour_address):
        r = await http.post("/api/account", headers=where,
                            json={"name": f"Kvote {tag} {i}",
                                  "password": password})
        assert r.status_code == 201, r.text
        http.cookies.clear()
    assert_limited(await http.post("/api/account", headers=where,
                                   json={"name": "Kvote over", "password": password}))
    name = f"Kvote {tag} 0"
    for _ in range(LIMITS.signins_per_minute_address):
        r = await http.post("/api/session", headers=where,
                            json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        http.cookies.clear()
    assert_limited(await http.post("/api/session", headers=where,
                                   json={"name": name, "password": password}))
    # the same account signs in from another address
    r = await http.post("/api/session", headers=new_address(),
                        json={"name": name, "password": password})
    assert r.status_code == 200, r.text


async def test_sockets_per_address(http: httpx.AsyncClient, live: LiveServer) -> None:
    where = new_address()
    made = (await create(http, await guest(http, where))).json()
    url = f"{live.ws}/ws/{made['match_id']}"
    lobby = f"{live.ws}/ws/lobby"
    opened = [await websockets.connect(url, additional_headers=where)
              for _ in range(LIMITS.sockets_address - 1)]
    opened.append(await websockets.connect(lobby, additional_headers=where))
    for sock in opened[:-1]:
        assert json.loads(await sock.recv())["t"] == "welcome"
    for target in (url, lobby):  # a game socket and a lobby socket past the limit
        extra = await websockets.connect(target, additional_headers=where)
        msg = json.loads(await asyncio.wait_for(extra.recv(), 10))
        assert msg["t"] == "error", msg
        assert msg["d"]["code"] == "rate_limited" and msg["d"]["ref"] == "socket"
        assert msg["d"]["retry_after"] >= 1
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(extra.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # another address connects; and a closed socket gives its place back
    other = await websockets.connect(url, additional_headers=new_address())
    assert json.loads(await other.recv())["t"] == "welcome"
    await opened.pop(0).close()
    await asyncio.sleep(0.3)
    again = await websockets.connect(url, additional_headers=where)
    assert json.loads(await again.recv())["t"] == "welcome"
    for sock in [*opened, other, again]:
        await sock.close()


async def test_lesson_moves_per_address(http: httpx.AsyncClient) -> None:
    """The lesson API plays bot moves in the bot pool: a flood of lesson moves from one
    address is refused past its quota (issue 29)."""
    where = new_address()
    for _ in range(LIMITS.lesson_moves_per_minute_address):
        r = await http.post("/api/learn/kugler", headers=where, json={"actions": []})
        assert r.status_code == 200, r.text
    assert_limited(await http.post("/api/learn/kugler", headers=where, json={"actions": []}))
    # another address may; the lesson's outline (no compute) is not counted
    r = await http.post("/api/learn/kugler", headers=new_address(), json={"actions": []})
    assert r.status_code == 200, r.text
    assert (await http.get("/api/learn/kugler", headers=where)).status_code == 200


async def finished_solitaire(http: httpx.AsyncClient, live: LiveServer,
                             where: dict[str, str]) -> str:
    """A Posthuskabalen given up at once (finished: its analysis can be asked for)."""
    r = await create(http, where, game="posthus")
    assert r.status_code == 201, r.text
    made = r.json()
    url = f"{live.ws}/ws/{made['match_id']}?token={made['token']}"
    async with websockets.connect(url, additional_headers=where) as sock:
        while json.loads(await asyncio.wait_for(sock.recv(), 10))["t"] != "state":
            pass
        await sock.send(json.dumps({"t": "act", "v": 0, "d": {"action": "resign"}}))
        while True:
            msg = json.loads(await asyncio.wait_for(sock.recv(), 10))
            if msg["t"] == "state" and msg["d"].get("outcome"):
                break
    match_id: str = made["match_id"]
    return match_id


@pytest.mark.slow
async def test_analyses_computed_per_address(http: httpx.AsyncClient,
                                             live: LiveServer) -> None:
    """Each new analysis is computed in the analysis worker (up to 8 s): a flood of
    analysis requests from one address is refused past its quota; an analysis already
    kept is answered anyway (issue 29)."""
    where = new_address()
    owner = await guest(http, where)
    games = [await finished_solitaire(http, live, owner) for _ in range(3)]
    for match_id in games[:LIMITS.analyses_per_minute_address]:
        r = await http.get(f"/api/matches/{match_id}/analysis", headers=where)
        assert r.status_code == 200, r.text
    detail = assert_limited(await http.get(f"/api/matches/{games[-1]}/analysis",
                                           headers=where))
    assert detail["key"] == "server.rate_limited"
    kept = await http.get(f"/api/matches/{games[0]}/analysis", headers=where)
    assert kept.status_code == 200, kept.text
    other = await http.get(f"/api/matches/{games[-1]}/analysis", headers=new_address())
    assert other.status_code == 200, other.text
