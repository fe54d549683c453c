"""A rating becomes established against distinct *opponents* (issue 28; core/rating_rules.py
``opponent``; docs/server.md, "Ratings"), on the real app and SQLite: in Kugler og
Jokere a partner (the game's ``teams()``: seats t and t + n/2) is no opponent.  Ten
rated 4-seat games, always against the same two accounts beside two alternating
partners, leave the rating provisional (2 opponents; 4 "others" counted before, which
made it established and put it on the leaderboard); an eleventh game against a third
opponent establishes it.  The games are written as the rater writes a rated game
(match, seats, rating history and rating rows); the server reads them."""

from __future__ import annotations

import itertools
import secrets
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import insert, update
from tests.server.live import LiveServer

from spillebord.core.rating_rules import ESTABLISHED_GAMES
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import matches, rating_history, ratings, seats

GAME = "kugler"
PASSWORD = "Tårnet har 7 blå vinduer"
_n = itertools.count(1)


async def account(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    http.cookies.clear()
    return str(r.json()["player_id"])


def rated_game(server: LiveServer, table: list[str], games_of_first: int) -> None:
    """A finished, rated 4-seat Kugler game of these accounts (seat by seat; team 0+2
    won), every seat's rating moved (history rows; the first account's rating row)."""
    engine = make_engine(server.settings.db_url)
    when = datetime.now(UTC) - timedelta(minutes=5)
    mid = secrets.token_hex(8)
    with engine.begin() as conn:
        conn.execute(insert(matches).values(
            id=mid, game=GAME, flags={}, seats=4, deal=1, status="finished",
            outcome={"ranking": [[0, 2], [1, 3]]}, created=when, finished=when))
        for seat, pid in enumerate(table):
            conn.execute(insert(seats).values(match_id=mid, seat=seat, kind="human",
                                              player_id=pid))
            conn.execute(insert(rating_history).values(  # every seat's rating moved
                match_id=mid, player_id=pid, game=GAME, seat_class="4", mu_before=25.0,
                sigma_before=4.0, mu=40.0, sigma=2.0, time=when))
        values = {"mu": 40.0, "sigma": 2.0, "games": games_of_first, "updated": when}
        if games_of_first == 1:
            conn.execute(insert(ratings).values(player_id=table[0], game=GAME,
                                                seat_class="4", **values))
        else:
            conn.execute(update(ratings).where(ratings.c.player_id == table[0],
                                               ratings.c.game == GAME).values(**values))
    engine.dispose()


async def test_partners_are_not_opponents_for_an_established_rating(
        server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        tag = next(_n)
        me, left, right, p1, p2, third = [
            await account(http, f"Makker {tag} {c}") for c in "ABCDEF"]
        for i in range(ESTABLISHED_GAMES):  # partners opposite me (seat 2) alternate
            rated_game(server, [me, left, p1 if i % 2 else p2, right], i + 1)
        mine = (await http.get(f"/api/players/{me}/ratings")).json()["ratings"]
        assert [(r["game"], r["class"]) for r in mine] == [(GAME, "4")]
        # (before: 4 "others", partners included, and established)
        assert mine[0]["others"] == 2 and mine[0]["provisional"] is True, mine
        board = (await http.get(f"/api/leaderboard/{GAME}?seats=4")).json()
        assert me not in [p["player_id"] for p in board["players"]], board
        # A third opponent (partner p1 again) establishes it.
        rated_game(server, [me, third, p1, right], ESTABLISHED_GAMES + 1)
        mine = (await http.get(f"/api/players/{me}/ratings")).json()["ratings"]
        assert mine[0]["others"] == 3 and mine[0]["provisional"] is False, mine
        board = (await http.get(f"/api/leaderboard/{GAME}?seats=4")).json()
        assert me in [p["player_id"] for p in board["players"]], board
