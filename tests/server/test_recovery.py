"""Reconnecting with the token, and restart recovery: a second app instance on the same
SQLite file reloads every unfinished game from its record and play continues."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from tests.server.live import (
    Client,
    LiveServer,
    create,
    play_randomly,
    settings_for,
    table_seats,
)

from spillebord import games

KEYS = games.keys()


async def test_reconnect_gives_the_full_state(server: LiveServer) -> None:
    key = KEYS[0]
    made = await create(server.http, game=key, seats=table_seats(games.load(key)))
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    st = await c.until(lambda s: bool(s["legal"]))
    await c.send("act", action=st["legal"][0])
    await c.until(lambda s: c.version >= 1)
    await c.close()
    again = await Client.open(server.ws, made["match_id"], made["token"])
    welcome = await again.expect("welcome")
    assert welcome["d"]["seat"] == 0 and welcome["v"] >= 1
    st2 = await again.expect("state")
    assert st2["v"] >= c.version and st2["d"]["seat"] == 0
    # sync from 0: every event again, numbered 1..v.
    await again.send("sync", v=0)
    full = await again.expect("state")
    assert [e["seq"] for e in full["d"]["events"]] == list(range(1, full["v"] + 1))
    assert full["d"]["events"][0]["action"] == st["legal"][0]
    await again.close()


@pytest.mark.parametrize("key", KEYS)
async def test_restart_resumes_unfinished_games(tmp_path: Path, key: str) -> None:
    db = str(tmp_path / "restart.db")
    game = games.load(key)
    rng = random.Random(7)
    first = LiveServer(settings_for(db)).start()
    try:
        made = await create(first.http, game=key, seats=table_seats(game), deal=12345)
        c = await Client.open(first.ws, made["match_id"], made["token"])
        await c.expect("welcome")
        for _ in range(3):
            v0 = c.version
            st = await c.until(lambda s, v0=v0: bool(s["legal"]) and c.version >= v0)
            calm = [a for a in st["legal"] if a != "resign"]
            await c.send("act", action=rng.choice(calm))
            await c.until(lambda s, v0=v0: c.version > v0)
        acked_version = c.version
        acked_view = c.state["view"]
        await c.close()
    finally:
        first.stop()   # the process's games are gone from memory; the file stays

    second = LiveServer(settings_for(db)).start()
    try:
        mid = made["match_id"]
        assert mid in second.services.rooms.sessions  # reloaded at start, before anyone asked
        async with httpx.AsyncClient(base_url=second.http) as http:
            info = (await http.get(f"/api/matches/{mid}")).json()
        assert info["status"] == "running" and info["version"] >= acked_version
        c = await Client.open(second.ws, mid, made["token"])
        await c.expect("welcome")
        st = await c.expect("state")
        if st["v"] == acked_version:
            assert st["d"]["view"] == acked_view
        final = await play_randomly(c, rng)
        assert final["outcome"] is not None
        await c.close()
    finally:
        second.stop()


def test_one_server_per_sqlite_file(tmp_path: Path) -> None:
    db = str(tmp_path / "owned.db")
    first = LiveServer(settings_for(db)).start()
    try:
        with pytest.raises(RuntimeError):
            LiveServer(settings_for(db)).start()  # would drive the same games twice
        assert httpx.get(f"{first.http}/api/games").status_code == 200
    finally:
        first.stop()
    again = LiveServer(settings_for(db)).start()  # released on a clean stop
    again.stop()
