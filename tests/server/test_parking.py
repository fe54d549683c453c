"""Idle games leave memory (server/room/parking.py, issue 20): a game with no socket that has
not moved for the idle time is parked — out of memory, counted in /metrics — and comes
back on its next socket with every event; a socket that stays open keeps its game; and
a restarted server reloads only the running games that moved within the idle time."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path

import httpx
from sqlalchemy import update
from tests.server.live import Client, LiveServer, create, settings_for

from spillebord.server.infra.storage.engine import make_engine
from spillebord.server.infra.storage.models import actions, matches
from spillebord.server.infra.storage.repo import now


async def _move(c: Client) -> int:
    st = await c.until(lambda s: bool(s["legal"]))
    before = c.version
    await c.send("act", action=next(a for a in st["legal"] if a != "resign"))
    await c.until(lambda s: c.version > before)
    return c.version


async def _parked(live: LiveServer, match_id: str, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if match_id not in live.services.rooms.sessions:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_an_idle_game_is_parked_and_comes_back(tmp_path: Path) -> None:
    live = LiveServer(settings_for(str(tmp_path / "p.db"), idle_seconds=0.5)).start()
    try:
        made = await create(live.http, game="posthus", deal=4242)
        mid, token = made["match_id"], made["token"]
        c = await Client.open(live.ws, mid, token)
        await c.expect("welcome")
        v = await _move(c)
        # An open socket keeps its game, however long nobody moves.
        assert not await _parked(live, mid, within=1.5)
        await c.close()
        assert await _parked(live, mid, within=3.0)
        assert live.services.parking.parked == 1
        text = httpx.get(f"{live.http}/metrics").text
        assert "spillebord_games_parked_total 1.0" in text
        # It comes back from its events: same version, same position, play goes on.
        again = await Client.open(live.ws, mid, token)
        welcome = await again.expect("welcome")
        assert welcome["v"] == v and welcome["d"]["seat"] == 0
        st = await again.expect("state")
        assert c.state is not None and st["v"] == v
        assert st["d"]["view"] == c.state["view"] and st["d"]["legal"] == c.state["legal"]
        assert await _move(again) == v + 1
        await again.close()
    finally:
        live.stop()


async def test_a_restart_reloads_only_recently_moved_games(tmp_path: Path) -> None:
    db = str(tmp_path / "r.db")
    first = LiveServer(settings_for(db)).start()
    try:
        old = await create(first.http, game="posthus", deal=1)
        new = await create(first.http, game="posthus", deal=2)
        for made in (old, new):
            c = await Client.open(first.ws, made["match_id"], made["token"])
            await c.expect("welcome")
            await _move(c)
            await c.close()
    finally:
        first.stop()
    engine = make_engine(f"sqlite:///{db}")
    long_ago = now() - timedelta(hours=2)
    with engine.begin() as conn:  # the old game last moved two hours ago
        conn.execute(update(matches).where(matches.c.id == old["match_id"])
                     .values(created=long_ago))
        conn.execute(update(actions).where(actions.c.match_id == old["match_id"])
                     .values(time=long_ago))
    engine.dispose()
    second = LiveServer(settings_for(db, idle_seconds=900)).start()
    try:
        assert new["match_id"] in second.services.rooms.sessions
        assert old["match_id"] not in second.services.rooms.sessions
        c = await Client.open(second.ws, old["match_id"], old["token"])  # on demand
        welcome = await c.expect("welcome")
        assert welcome["v"] == 1
        assert await _move(c) == 2
        await c.close()
    finally:
        second.stop()
