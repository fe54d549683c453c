"""The ranked daily deal against the cheating player (issue 28; docs/security.md, "The
daily deal"), on the real app and SQLite: only a signed-in account starts a ranked
attempt, once a day (a fresh guest id is no new attempt); the attempt gets no hint and
no verdict and cannot undo a redeal, while undo within a round works and is counted on
the leaderboard, which says what it ranks by; a finished attempt is no longer offered
to continue, and the attempt's page can tell it is the daily deal; until the day is
over no one else gets an attempt's match id, record or replay."""

from __future__ import annotations

import itertools
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, event, insert, select, update
from tests.server.live import Client, LiveServer

from spillebord.server.daily.service import Daily
from spillebord.server.daily.storage import DailyRepo
from spillebord.server.errors import Refusal
from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.migrate import upgrade
from spillebord.server.infra.storage.models import daily_attempts, daily_deals, matches, players
from spillebord.server.infra.storage.repo import now

GAME = "posthus"
PASSWORD = "Blåbær-Kage 7 af tårnet"
_n = itertools.count(1)


async def account(server: LiveServer, name: str) -> httpx.AsyncClient:
    """A browser signed in to a new account (its own cookie jar)."""
    http = httpx.AsyncClient(base_url=server.http, timeout=60)
    r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http


def code(r: httpx.Response) -> str:
    detail: dict[str, Any] = r.json()["detail"]
    assert detail["reason"]
    return str(detail["code"])


async def refused(c: Client, t: str, **d: Any) -> str:
    await c.send(t, **d)
    msg = await c.expect("error")
    assert msg["d"]["reason"]
    return str(msg["d"]["code"])


async def test_a_ranked_attempt_needs_an_account_once_a_day(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        for _ in range(3):  # each fresh guest id: refused, not another attempt
            pid = (await http.post("/api/players")).json()["player_id"]
            r = await http.post(f"/api/daily/{GAME}/play", headers={"X-Player": pid})
            assert r.status_code == 401 and code(r) == "daily_account", r.text
        r = await http.post(f"/api/daily/{GAME}/play")
        assert r.status_code == 401 and code(r) == "daily_account"
        board = (await http.get(f"/api/daily/{GAME}/leaderboard")).json()
        assert board["players"] == []
    me = await account(server, f"Dagen {next(_n)}")
    try:
        r = await me.post(f"/api/daily/{GAME}/play")
        assert r.status_code == 201, r.text
        r = await me.post(f"/api/daily/{GAME}/play")
        assert r.status_code == 409 and code(r) == "already_played"
        # The same account with a guest id beside it is still the account.
        pid = (await me.post("/api/players")).json()["player_id"]
        r = await me.post(f"/api/daily/{GAME}/play", headers={"X-Player": pid})
        assert r.status_code == 409 and code(r) == "already_played"
    finally:
        await me.aclose()


async def test_no_help_and_no_undo_of_a_redeal_in_a_ranked_attempt(
        server: LiveServer) -> None:
    name = f"Dagen {next(_n)}"
    me = await account(server, name)
    try:
        made = (await me.post(f"/api/daily/{GAME}/play")).json()
        c = await Client.open(server.ws, made["match_id"], made["token"], me)
        await c.expect("welcome")
        await c.expect("state")
        assert await refused(c, "hint") == "daily_no_help"
        assert await refused(c, "verdict") == "daily_no_help"

        def a_move() -> str:
            assert c.state is not None
            return next(a for a in c.state["legal"] if a not in ("redeal", "resign"))

        async def act(action: str) -> None:
            await c.send("act", action=action)
            await c.until(lambda s, v=c.version: c.version > v)

        async def undo() -> None:
            await c.send("undo")
            await c.until(lambda s, v=c.version: c.version > v)

        await act(a_move())
        await undo()  # within a round: allowed, and counted
        await act("redeal")
        assert await refused(c, "undo") == "daily_no_undo"
        await act(a_move())
        await undo()  # back to just after the redeal: allowed
        assert await refused(c, "undo") == "daily_no_undo"
        await act("resign")
        await c.close()
        board = (await me.get(f"/api/daily/{GAME}/leaderboard")).json()
        assert board["ranks"] == ["bonus", "moves", "seconds"]
        row = next(p for p in board["players"] if p["name"] == name)
        assert row["undos"] == 2 and row["rank"] is not None
        # The finished attempt: the daily page offers its replay, the play page says
        # it is the daily deal's ranked attempt.
        info = (await me.get(f"/api/daily/{GAME}")).json()
        assert info["attempt"] == made["match_id"] and info["attempt_finished"] is True
        about = (await me.get(f"/api/daily/attempt/{made['match_id']}")).json()
        assert about == {"match_id": made["match_id"], "daily": True, "game": GAME,
                         "day": info["day"], "finished": True}
        # An ordinary game of the same deal still has hints and undo of a redeal.
        plain = (await me.post("/api/matches", json={"game": GAME, "seats": ["me"],
                                                     "deal": 7})).json()
        r = await me.get(f"/api/daily/attempt/{plain['match_id']}")
        assert r.status_code == 200 and r.json() == {"match_id": plain["match_id"],
                                                     "daily": False}
        p = await Client.open(server.ws, plain["match_id"], plain["token"], me)
        await p.expect("welcome")
        await p.expect("state")
        await p.send("hint")
        assert (await p.expect("hint", timeout=30))["d"]["action"]
        await p.send("act", action="redeal")
        await p.until(lambda s, v=p.version: p.version > v)
        await p.send("undo")
        await p.until(lambda s, v=p.version: p.version > v)
        await p.close()
    finally:
        await me.aclose()


async def test_other_players_attempts_open_when_the_day_is_over(
        server: LiveServer) -> None:
    me = await account(server, f"Dagen {next(_n)}")
    try:
        made = (await me.post(f"/api/daily/{GAME}/play")).json()
        c = await Client.open(server.ws, made["match_id"], made["token"], me)
        await c.expect("welcome")
        await c.expect("state")
        await c.send("act", action="resign")
        await c.until(lambda s: s["outcome"] is not None)
        await c.close()
        mine = {"Authorization": f"Bearer {made['token']}"}
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as other:
            for path in ("record", "replay?step=0"):
                url = f"/api/matches/{made['match_id']}/{path}"
                r = await other.get(url)
                assert r.status_code == 403 and code(r) == "daily_running", r.text
                assert (await other.get(url, headers=mine)).status_code == 200
            board = (await other.get(f"/api/daily/{GAME}/leaderboard")).json()
            assert board["players"] and all(p["match_id"] is None
                                            for p in board["players"])
            assert made["match_id"] not in str(board)
            # The day is over: move the attempt to yesterday (the deal with it).
            day = board["day"]
            yesterday = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
            engine = create_engine(server.settings.db_url)
            with engine.begin() as conn:
                if conn.execute(select(daily_deals.c.day).where(
                        daily_deals.c.game == GAME,
                        daily_deals.c.day == yesterday)).first() is None:
                    conn.execute(update(daily_deals).where(
                        daily_deals.c.game == GAME, daily_deals.c.day == day)
                        .values(day=yesterday))
                conn.execute(update(daily_attempts).where(
                    daily_attempts.c.match_id == made["match_id"]).values(day=yesterday))
            engine.dispose()
            for path in ("record", "replay?step=0"):
                r = await other.get(f"/api/matches/{made['match_id']}/{path}")
                assert r.status_code == 200, r.text
            past = (await other.get(f"/api/daily/{GAME}/leaderboard?day={yesterday}")).json()
            assert [p["match_id"] for p in past["players"]] == [made["match_id"]]
    finally:
        await me.aclose()


async def test_whether_a_match_is_a_ranked_attempt_is_read_once(tmp_path: Path) -> None:
    """Every hint, verdict and undo asks whether its match is a ranked attempt; a match
    that is none never becomes one, so that is read from the database once (issue 29: a
    seat flooding hints cost a read on a thread each time); a ranked attempt's day is
    read each time.  Fails before: a read per question."""
    engine = make_engine(f"sqlite:///{tmp_path / 'ranked.db'}")
    upgrade(engine)
    when = now()
    with engine.begin() as conn:
        conn.execute(insert(players).values(id="p1", created=when))
        for match in ("ranked", "free"):
            conn.execute(insert(matches).values(
                id=match, game=GAME, flags={}, seats=1, deal=7, status="running",
                created=when))
        conn.execute(insert(daily_attempts).values(
            game=GAME, day="2026-12-05", player_id="p1", match_id="ranked", created=when))
    reads: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 lambda _c, _cur, sql, *_a: reads.append(sql))

    def unused(*_args: Any) -> Any:
        raise AssertionError("not asked")

    daily = Daily(DailyRepo(engine), unused, unused, unused, unused)
    try:
        for _ in range(5):
            assert await daily.ranked_day("ranked") == "2026-12-05"
            assert await daily.ranked_day("free") is None
            with pytest.raises(Refusal) as refused:
                await daily.refuse_help("ranked")
            assert refused.value.code == "daily_no_help"
            await daily.refuse_help("free")
        assert len(reads) == 1 + 10, reads  # "free" once; "ranked" every time
    finally:
        engine.dispose()
