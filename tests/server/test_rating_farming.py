"""Ratings against the cheating player (issue 28; server/rating_rules.py;
docs/security.md, "The cheating player: ratings"), on the real app and SQLite, with
Gammel Jomfru played to the end over the WebSocket:

- a pair farming 10 games in a day moves ratings only in its first ``PAIR_LIMIT``;
- a seat a takeover bot played for an account that never connected is a loss for that
  account, and the other account gains nothing from it;
- a guest who signs up during the game does not make it rated;
- the leaderboard lists established ratings only; a provisional player sees their own,
  marked."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from tests.server.live import Client, LiveServer, play_randomly

from spillebord.core.rating_rules import PAIR_LIMIT, left_ranking
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import rated_matches, rating_history

GAME = "gammel_jomfru"
PASSWORD = "Tårnet har 7 blå vinduer"
_seed = iter(range(1, 10_000))


async def account(base: str, name: str) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=base, timeout=60)
    r = await http.post("/api/account", json={"name": f"{name} {time.time_ns() % 10**6}",
                                              "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http, r.json()["player_id"]


async def game(server: LiveServer, a: httpx.AsyncClient, b: httpx.AsyncClient,
               **extra: Any) -> str:
    """A and B play one game to the end (both connected); its match id."""
    made = (await a.post("/api/matches", json={"game": GAME, "seats": ["me", "human"],
                                               **extra})).json()
    claimed = (await b.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                            json={})).json()
    # an account's seat opens to a socket signed in as the account (issue 27)
    ca = await Client.open(server.ws, made["match_id"], made["token"], signed=a)
    cb = await Client.open(server.ws, made["match_id"], claimed["token"], signed=b)
    await asyncio.gather(play_randomly(ca, random.Random(next(_seed))),
                         play_randomly(cb, random.Random(next(_seed))))
    await ca.close()
    await cb.close()
    return str(made["match_id"])


def marks(server: LiveServer, ids: list[str]) -> dict[str, bool | None]:
    """Each match's rater mark (None: not looked at yet)."""
    engine = make_engine(server.settings.db_url)
    with engine.connect() as conn:
        found = {r.match_id: bool(r.rated) for r in conn.execute(
            select(rated_matches).where(rated_matches.c.match_id.in_(ids)))}
    engine.dispose()
    return {m: found.get(m) for m in ids}


async def looked_at(server: LiveServer, ids: list[str]) -> dict[str, bool | None]:
    deadline = time.monotonic() + 30
    while True:
        got = marks(server, ids)
        if all(v is not None for v in got.values()):
            return got
        assert time.monotonic() < deadline, got
        await asyncio.sleep(0.2)


def history(server: LiveServer, pid: str) -> list[Any]:
    engine = make_engine(server.settings.db_url)
    with engine.connect() as conn:
        rows = conn.execute(select(rating_history).where(rating_history.c.player_id == pid)
                            .order_by(rating_history.c.time)).all()
    engine.dispose()
    return list(rows)


@pytest.mark.slow
async def test_a_pair_farming_ten_games_moves_ratings_only_in_the_first_few(
        server: LiveServer) -> None:
    (a, pa), (b, pb) = await account(server.http, "Farm A"), await account(server.http,
                                                                             "Farm B")
    try:
        ids = []
        for _ in range(10):
            ids.append(await game(server, a, b))
            await looked_at(server, ids[-1:])  # in order, as the sweeper would
        got = await looked_at(server, ids)
        assert [got[m] for m in ids] == [True] * PAIR_LIMIT + [False] * (10 - PAIR_LIMIT)
        for pid in (pa, pb):
            assert [h.match_id for h in history(server, pid)] == ids[:PAIR_LIMIT]
            [mine] = (await a.get(f"/api/players/{pid}/ratings")).json()["ratings"]
            assert mine["games"] == PAIR_LIMIT and mine["provisional"] is True
        # The leaderboard shows established ratings only; a provisional player sees
        # their own, marked.
        board = (await a.get(f"/api/leaderboard/{GAME}", params={"seats": 2})).json()
        assert all(p["player_id"] not in (pa, pb) for p in board["players"])
        assert all(p["provisional"] is False for p in board["players"])
        assert board["mine"]["player_id"] == pa and board["mine"]["provisional"] is True
        assert board["mine"]["rank"] is None
        async with httpx.AsyncClient(base_url=server.http) as nobody:
            other = (await nobody.get(f"/api/leaderboard/{GAME}",
                                      params={"seats": 2})).json()
        assert other["mine"] is None and pa not in str(other)
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_seat_a_takeover_bot_played_loses_and_nobody_gains(
        server: LiveServer) -> None:
    (a, pa), (b, pb) = await account(server.http, "Bliver A"), await account(server.http,
                                                                               "Forlod B")
    try:
        for _ in range(2):  # whoever wins the cards, B's seat loses; A never moves
            made = (await a.post("/api/matches", json={
                "game": GAME, "seats": ["me", "human"], "takeover_seconds": 1})).json()
            # A sits down first (on a loaded machine a later socket could come after the
            # 1-s takeover and a bot would play A's seat too: the game is then unrated).
            ca = await Client.open(server.ws, made["match_id"], made["token"], signed=a)
            await ca.expect("welcome")
            # B takes the seat and never connects: a takeover bot plays all its moves.
            r = await b.post(f"/api/invites/{made['invites'][0]['code']}/claim", json={})
            assert r.status_code == 200, r.text
            await play_randomly(ca, random.Random(next(_seed)))
            await ca.close()
            assert (await looked_at(server, [made["match_id"]]))[made["match_id"]] is True
        assert history(server, pa) == []
        lost = history(server, pb)
        assert len(lost) == 2 and all(h.mu < h.mu_before for h in lost)
    finally:
        await a.aclose()
        await b.aclose()


async def test_a_guest_who_signs_up_during_the_game_leaves_it_unrated(
        server: LiveServer) -> None:
    a, pa = await account(server.http, "Fra start")
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as g:
        pg = (await g.post("/api/players")).json()["player_id"]
        made = (await a.post("/api/matches", json={"game": GAME,
                                                   "seats": ["me", "human"]})).json()
        claimed = (await g.post(f"/api/invites/{made['invites'][0]['code']}/claim",
                                headers={"X-Player": pg}, json={})).json()
        ca = await Client.open(server.ws, made["match_id"], made["token"], signed=a)
        cb = await Client.open(server.ws, made["match_id"], claimed["token"])
        await ca.expect("welcome")
        await cb.expect("welcome")
        await ca.until(lambda s: True)
        await cb.until(lambda s: True)
        mover = ca if ca.state and ca.state["legal"] else cb
        assert mover.state is not None and mover.state["legal"]
        await mover.send("act", action=mover.state["legal"][0])  # the game has begun
        await mover.until(lambda s, v=mover.version: mover.version > v)
        r = await g.post("/api/account", headers={"X-Player": pg},
                         json={"name": f"Sent {time.time_ns() % 10**6}", "password": PASSWORD})
        assert r.status_code == 201 and r.json()["player_id"] == pg, r.text
        await asyncio.gather(play_randomly(ca, random.Random(5)),
                             play_randomly(cb, random.Random(6)))
        await ca.close()
        await cb.close()
        assert (await looked_at(server, [made["match_id"]]))[made["match_id"]] is False
        assert history(server, pa) == [] and history(server, pg) == []
    await a.aclose()


def test_left_ranking() -> None:
    assert left_ranking([[1], [0]], {1}, 2) == [[0], [1]]
    assert left_ranking([[2], [0, 1], [3]], {2, 3}, 4) == [[0, 1], [2, 3]]
    assert left_ranking([[0]], set(), 3) == [[0], [1, 2]]


async def test_the_table_says_whether_it_is_rated_before_anyone_sits(
        server: LiveServer) -> None:
    a, _pa = await account(server.http, "Vært")
    try:
        open_table = (await a.post("/api/matches", json={
            "game": GAME, "seats": ["me", "human"], "public": True})).json()
        with_bot = (await a.post("/api/matches", json={
            "game": GAME, "seats": ["me", "human", {"bot": "random"}],
            "public": True})).json()
        tables = {t["match_id"]: t for t in (await a.get("/api/lobby")).json()["tables"]}
        assert tables[open_table["match_id"]]["rated"] == {"rated": True, "why": None}
        assert tables[with_bot["match_id"]]["rated"] == {"rated": False, "why": "bots"}
        r = await a.get(f"/api/matches/{open_table['match_id']}/rated")
        assert r.json() == {"match_id": open_table["match_id"], "rated": True, "why": None,
                            "final": False}
        # A guest takes the free seat: the table says it is not rated, and why.
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as g:
            pg = (await g.post("/api/players")).json()["player_id"]
            took = await g.post(f"/api/lobby/{open_table['match_id']}/take",
                                headers={"X-Player": pg}, json={"seat": 1})
            assert took.status_code == 200, took.text
        r = await a.get(f"/api/matches/{open_table['match_id']}/rated")
        assert (r.json()["rated"], r.json()["why"]) == (False, "guests")
        r = await a.get("/api/matches/nosuchmatch/rated")
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    finally:
        await a.aclose()
