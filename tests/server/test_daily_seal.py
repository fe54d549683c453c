"""The sealed daily deal against the cheating player (issue 28; docs/protocol.md,
"Checking a daily deal"), on the real app and SQLite: the day's deal comes from the
server's secret, not from the shipped date formula or table; no answer, state message,
record, replay, statistic or leaderboard names it (or its salt) before the day is over,
to the players of the day included; the commitments of today and the next days are
published; the server restarted a day later (``day_offset``) reveals deal and salt,
which a test recomputes: SHA-256 of ``"<deal>:<salt>"`` is the commitment seen the day
before, the deal is the first winnable deal from the secret's start, and it is the
layout that was played.  A secret the operator sets nobody is never logged or answered;
one the server makes itself is kept in the database and used by every restart."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from tests.server.live import Client, LiveServer, settings_for

from spillebord import games, solvers
from spillebord.server.daily.seal import salt_of, start_of
from spillebord.server.infra.storage.models import daily_deals, server_secrets
from spillebord.solvers import tables

GAME = "posthus"
PASSWORD = "Blåbær-Kage 7 af tårnet"
DAY = 86_400.0


async def account(base: str, name: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=base, timeout=120)
    r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http


def stored(db_url: str, day: str) -> tuple[int, int, str]:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        row = conn.execute(select(daily_deals).where(daily_deals.c.game == GAME,
                                                     daily_deals.c.day == day)).one()
    engine.dispose()
    return int(row.start), int(row.deal), str(row.salt)


async def play_a_little(server: LiveServer, made: dict[str, Any], texts: list[str],
                        moves: int, signed: httpx.AsyncClient) -> list[list[str]]:
    """A few moves, a redeal and a resignation; every frame kept in ``texts``; the
    first grid seen is returned."""
    # an account's seat opens to a socket signed in as the account (issue 27)
    c = await Client.open(server.ws, made["match_id"], made["token"], signed=signed)
    await c.expect("welcome")
    state = (await c.expect("state"))["d"]
    first: list[list[str]] = state["view"]["grid"]
    for i in range(moves):
        assert c.state is not None
        calm = [a for a in c.state["legal"] if a not in ("redeal", "resign")]
        action = calm[0] if calm and i != 1 else "redeal"
        await c.send("act", action=action)
        await c.until(lambda s, v=c.version: c.version > v)
    await c.send("act", action="resign")
    await c.until(lambda s: s["outcome"] is not None)
    await c.close()
    texts.extend(c.raw)
    return first


async def test_the_days_deal_is_sealed_until_the_day_is_over_then_verifies(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    secret = "the operator's daily secret " + "7" * 20
    db = str(tmp_path / "seal.db")
    server = LiveServer(settings_for(db, daily_secret=secret)).start()
    texts: list[str] = []
    try:
        base = server.http
        a, b = await account(base, "Forseglet A"), await account(base, "Forseglet B")
        anyone = httpx.AsyncClient(base_url=base, timeout=120)
        info = (await a.get(f"/api/daily/{GAME}")).json()
        day = info["day"]
        published = (await anyone.get(f"/api/daily/{GAME}/commitments")).json()
        for _ in range(600):  # later days are chosen in the background
            if all(d["commitment"] for d in published["days"]):
                break
            await asyncio.sleep(0.1)
            published = (await anyone.get(f"/api/daily/{GAME}/commitments")).json()
        assert published["days"][0]["day"] == day
        assert len(published["days"]) == 8 and all(len(d["commitment"]) == 64
                                                   for d in published["days"])
        assert info["commitment"] == published["days"][0]["commitment"]
        assert info["deal"] is info["start"] is info["salt"] is None
        start, deal, salt = stored(server.settings.db_url, day)
        # The shipped formula and tables no longer predict it.
        assert all(deal not in tables.winnable_deals(GAME, level)
                   for level in ("easy", "medium", "hard"))
        made = {}
        for who, http in (("A", a), ("B", b)):
            r = await http.post(f"/api/daily/{GAME}/play")
            assert r.status_code == 201, r.text
            made[who] = r.json()
            texts.append(r.text)
        c = await account(base, "Forseglet C")
        late = (await c.post(f"/api/daily/{GAME}/play")).json()  # not finished in the day
        await c.aclose()
        first = await play_a_little(server, made["A"], texts, 4, a)
        await play_a_little(server, made["B"], texts, 2, b)
        mine = {"Authorization": f"Bearer {made['A']['token']}"}
        ident = made["A"]["match_id"]
        for path in (f"/api/daily/{GAME}", f"/api/daily/{GAME}/leaderboard",
                     f"/api/daily/{GAME}/days", f"/api/daily/{GAME}/commitments",
                     f"/api/daily/attempt/{ident}", f"/api/matches/{ident}",
                     f"/api/matches/{ident}/record", f"/api/matches/{ident}/replay?step=3",
                     f"/api/matches/{ident}/players"):
            r = await a.get(path, headers=mine)
            assert r.status_code == 200, (path, r.text)
            texts.append(r.text)
        me = (await a.get("/api/me")).json()
        for path in (f"/api/players/{me['player_id']}/stats",
                     f"/api/players/{me['player_id']}/ratings"):
            texts.append((await a.get(path)).text)
        for path in (f"/api/matches/{ident}/record", f"/api/matches/{ident}/replay?step=0"):
            r = await b.get(path)
            assert r.status_code == 403 and r.json()["detail"]["code"] == "daily_running"
        for code in (f"/api/daily/{GAME}/leaderboard?day={published['days'][1]['day']}",):
            r = await anyone.get(code)
            assert r.status_code == 404 and r.json()["detail"]["code"] == "no_daily"
        seen = "\n".join(texts)
        for hidden in (str(deal), salt, str(start), secret):
            assert hidden not in seen, hidden
        await a.aclose()
        await b.aclose()
        await anyone.aclose()
    finally:
        server.stop()
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert secret not in logged and salt not in logged and str(deal) not in logged

    # A day later (the same database, the clock moved): the reveal checks out.
    later = LiveServer(settings_for(db, daily_secret=secret, day_offset=DAY)).start()
    try:
        async with httpx.AsyncClient(base_url=later.http, timeout=120) as http:
            board = (await http.get(f"/api/daily/{GAME}/leaderboard?day={day}")).json()
            assert (board["deal"], board["salt"], board["start"]) == (deal, salt, start)
            assert board["commitment"] == published["days"][0]["commitment"]
            assert hashlib.sha256(board["text"].encode()).hexdigest() == board["commitment"]
            assert board["text"] == f"{deal}:{salt}"
            # Recomputed from the secret: start, salt, the first winnable deal from start.
            assert start == start_of(secret, GAME, day) and salt == salt_of(secret, GAME, day)
            assert solvers.load(GAME).pick_winnable_deal(start, 5.0) == deal
            grid = games.load(GAME).new(deal=deal).view(0)
            assert isinstance(grid, dict) and grid["grid"] == first
            # Tomorrow's commitment, published yesterday, is today's.
            now = (await http.get(f"/api/daily/{GAME}/commitments")).json()
            assert now["days"][0] == published["days"][1]
            days = (await http.get(f"/api/daily/{GAME}/days")).json()["days"]
            assert days[0]["deal"] is None and days[1]["day"] == day
            assert days[1]["deal"] == deal
            ident = made["A"]["match_id"]
            assert (await http.get(f"/api/matches/{ident}")).json()["deal"] == deal
            r = await http.get(f"/api/matches/{ident}/record")
            assert r.status_code == 200 and r.json()["record"]["deal"] == deal
            assert [p["match_id"] for p in board["players"]
                    if p["name"] == "Forseglet A"] == [ident]
        # An attempt still running when its day ended takes no more moves (its deal,
        # and with it every redeal, is public now); it stays unranked.
        cl = await Client.open(later.ws, late["match_id"], late["token"], signed=c)
        await cl.expect("welcome")
        state = (await cl.expect("state"))["d"]
        for kind, extra in (("act", {"action": state["legal"][0]}), ("undo", {})):
            await cl.send(kind, **extra)
            assert (await cl.expect("error"))["d"]["code"] == "daily_over"
        await cl.close()
    finally:
        later.stop()


async def test_a_secret_the_server_makes_is_kept_and_never_shown(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    db = str(tmp_path / "kept.db")
    commitments = []
    for _ in range(2):  # the second start reads the same secret
        server = LiveServer(settings_for(db)).start()
        try:
            async with httpx.AsyncClient(base_url=server.http, timeout=120) as http:
                r = await http.get(f"/api/daily/{GAME}/commitments")
                assert r.status_code == 200, r.text
                commitments.append(r.json()["days"][0])
                texts = [r.text, (await http.get(f"/api/daily/{GAME}")).text]
        finally:
            server.stop()
    assert commitments[0] == commitments[1]
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        secret = conn.execute(select(server_secrets.c.value)).scalar_one()
    engine.dispose()
    assert len(secret) == 64
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert secret not in logged and all(secret not in t for t in texts)
    assert secret not in repr(settings_for(db, daily_secret=secret))
