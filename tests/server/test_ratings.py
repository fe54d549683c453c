"""Ratings against the real app and SQLite (issue 15): two signed-in named players
play Gammel Jomfru to the end; both ratings change once (winner up, loser down), the
leaderboard orders them, the lobby shows a rating beside a name; a game with a guest is
unrated; a second look at a rated match changes nothing."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
from sqlalchemy import func, select
from tests.server.live import Client, LiveServer, play_randomly

from spillebord.core.rating import seat_class
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import rated_matches, rating_history
from spillebord.server.infra.storage.repo import now

GAME = "gammel_jomfru"
PASSWORD = "Tårnet har 7 blå vinduer"


async def account(base: str, name: str) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=base, timeout=30)
    r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http, r.json()["player_id"]


async def play_out(server: LiveServer, a: httpx.AsyncClient,
                   b: httpx.AsyncClient | None) -> dict[str, Any]:
    r = await a.post("/api/matches", json={"game": GAME, "seats": ["me", "human"]})
    made = r.json()
    claim = b or httpx.AsyncClient(base_url=server.http, timeout=30)
    claimed = (await claim.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                json={})).json()
    if b is None:
        await claim.aclose()
    ca = await Client.open(server.ws, made["match_id"], made["token"], a)
    cb = await Client.open(server.ws, made["match_id"], claimed["token"], b)
    finals = await asyncio.gather(play_randomly(ca, random.Random(1)),
                                  play_randomly(cb, random.Random(2)))
    await ca.close()
    await cb.close()
    return {"match_id": made["match_id"], "outcome": finals[0]["outcome"]}


async def ratings_of(http: httpx.AsyncClient, pid: str, n: int) -> dict[str, Any]:
    deadline = time.monotonic() + 15
    while True:
        got: dict[str, Any] = (await http.get(f"/api/players/{pid}/ratings")).json()
        if len(got["history"]) >= n:
            return got
        assert time.monotonic() < deadline, got
        await asyncio.sleep(0.2)


async def test_a_rated_game(server: LiveServer) -> None:
    stamp = time.time_ns() % 10**6
    a, pa = await account(server.http, f"Rated A {stamp}")
    b, pb = await account(server.http, f"Rated B {stamp}")
    try:
        played = await play_out(server, a, b)
        winners = played["outcome"]["winners"]
        ra, rb = await ratings_of(a, pa, 1), await ratings_of(b, pb, 1)
        for got in (ra, rb):
            [now_rating] = got["ratings"]
            assert now_rating["game"] == GAME and now_rating["class"] == "2"
            assert now_rating["games"] == 1
            assert got["history"][0]["match_id"] == played["match_id"]
            assert got["history"][0]["rating_before"] == 1000
        if winners in ([0], [1]):
            win, lose = (ra, rb) if winners == [0] else (rb, ra)
            assert win["ratings"][0]["mu"] > 25 > lose["ratings"][0]["mu"]
            # One game: both provisional (tests/server/test_rating_farming.py), so the
            # leaderboard does not list them; each sees their own, marked.
            board = (await a.get(f"/api/leaderboard/{GAME}", params={"seats": 2})).json()
            assert f"Rated A {stamp}" not in [p["name"] for p in board["players"]]
            assert board["mine"]["name"] == f"Rated A {stamp}"
            assert board["mine"]["provisional"] is True and board["mine"]["rank"] is None
        # The game page's seat list gets the names and ratings.
        people = (await a.get(f"/api/matches/{played['match_id']}/players")).json()
        assert people["seats"] == [
            {"seat": 0, "name": f"Rated A {stamp}", "rating": ra["ratings"][0]["rating"],
             "bot_account": False},
            {"seat": 1, "name": f"Rated B {stamp}", "rating": rb["ratings"][0]["rating"],
             "bot_account": False}]
        assert (await a.get("/api/matches/nosuchmatch/players")).status_code == 404
        # A second look at the same match does nothing.
        hub = server.services
        again = await asyncio.to_thread(hub.ratings.repo.rate_match, played["match_id"],
                                        now(), hub.ratings.compute)
        assert again is False
        engine = make_engine(server.settings.db_url)
        with engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(rating_history).where(
                rating_history.c.match_id == played["match_id"])).scalar_one()
        assert n == 2
        # The lobby shows the rating beside the name.
        r = await a.post("/api/matches", json={"game": GAME, "seats": ["me", "human"],
                                               "public": True})
        table = next(t for t in (await a.get("/api/lobby")).json()["tables"]
                     if t["match_id"] == r.json()["match_id"])
        assert table["seats"][0]["rating"] == ra["ratings"][0]["rating"]
        assert table["seats"][1]["rating"] is None
        # A game with a guest in it is not rated.
        guest_game = await play_out(server, a, None)
        # the rater's decision is its mark (it looks once a second): wait for it
        deadline = time.monotonic() + 30
        while True:
            with engine.connect() as conn:
                mark = conn.execute(select(rated_matches.c.rated).where(
                    rated_matches.c.match_id == guest_game["match_id"])).scalar()
            if mark is not None or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        engine.dispose()
        assert mark is False
        assert len((await a.get(f"/api/players/{pa}/ratings")).json()["history"]) == 1
    finally:
        await a.aclose()
        await b.aclose()


async def test_leaderboard_refusals(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.get("/api/leaderboard/posthus", params={"seats": 2})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_seats"
        r = await http.get("/api/leaderboard/chess", params={"seats": 2})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "unknown_game"
        r = await http.get(f"/api/leaderboard/{GAME}", params={"seats": 4})
        assert r.status_code == 200 and r.json()["class"] == seat_class(GAME, 4) == "3-4"
