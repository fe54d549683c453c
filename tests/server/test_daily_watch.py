"""Nobody watches a ranked daily attempt but its player until its day is over (issue 28;
docs/security.md, "The cheating player: the daily deal"), on the real app and SQLite:
a socket at the attempt without its seat — a spectator, another account, a wrong token
— gets nothing of the game (no welcome, no state, no seat list) but ``error
daily_running`` and a close with 4403, whether it sends a frame, a hello that opens no
seat, or nothing at all; the attempt's own page (connect, then ``hello`` with the
token) plays as before.  The match's public answers (info, players, chat) hold no move,
its record, replay and analysis stay closed; when the day is over (its end moved to
the past) anyone watches it."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, update
from tests.server.live import Client, LiveServer

from spillebord.server.http.ws import HOLD_SECONDS, SEALED_CLOSE
from spillebord.server.infra.storage.models import matches

GAME = "posthus"
PASSWORD = "Blåbær-Kage 7 af tårnet"
_n = itertools.count(1)
pytestmark = pytest.mark.slow  # a 5-s hold


async def account(server: LiveServer, name: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=server.http, timeout=60)
    r = await http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http


async def watched(server: LiveServer, match_id: str, first: dict[str, Any] | None,
                  signed: httpx.AsyncClient | None = None) -> tuple[list[str], int | None]:
    """Open a socket without the attempt's seat, send ``first`` (a frame ``{t, **d}``)
    or nothing, and read until the server closes it: every frame and the close code."""
    w = await Client.open(server.ws, match_id, None, signed)
    if first is not None:
        await w.send(first.pop("t"), v=0, **first)
    try:
        while True:
            await w.recv(timeout=HOLD_SECONDS + 20)
    except websockets.ConnectionClosed:
        pass
    return w.raw, w.conn.close_code


def refused_only(frames: list[str], code: int | None, *before: str) -> None:
    """Nothing of the game reached the socket: the errors ``before`` (if any), then
    ``daily_running``, then the close 4403."""
    msgs = [json.loads(f) for f in frames]
    assert [m["t"] for m in msgs] == ["error"] * (len(before) + 1), msgs
    assert [m["d"]["code"] for m in msgs] == [*before, "daily_running"], msgs
    assert msgs[-1]["d"]["reason"]
    assert code == SEALED_CLOSE


async def test_nobody_but_its_player_watches_a_ranked_attempt_until_the_day_is_over(
        server: LiveServer) -> None:
    me = await account(server, f"Vagt {next(_n)}")
    other = await account(server, f"Vagt {next(_n)}")
    try:
        made = (await me.post(f"/api/daily/{GAME}/play")).json()
        mid = made["match_id"]
        # The page's way: connect, then hello with the token.
        c = await Client.open(server.ws, mid, None, me)
        await c.send("hello", token=made["token"])
        # (before: the socket was first welcomed as a spectator, the state and all)
        assert (await c.expect("welcome"))["d"]["role"] == "player"
        await c.expect("state")
        line: list[str] = []

        async def move() -> None:
            assert c.state is not None
            legal = [a for a in c.state["legal"] if a != "resign"]
            action = next((a for a in legal if a != "redeal"), legal[0])
            await c.send("act", action=action)
            line.append(action)
            await c.until(lambda s, v=c.version: c.version > v)

        await move()
        # A spectator that says nothing, while the player moves: it gets nothing of the
        # moves, then (after HOLD_SECONDS) the refusal.
        started = time.monotonic()
        quiet = asyncio.create_task(watched(server, mid, None))
        await asyncio.sleep(0.5)
        await move()
        await move()
        refused_only(*await quiet)
        assert time.monotonic() - started < HOLD_SECONDS + 10
        # A spectator that asks for the state; another account asking for its seat; a
        # wrong token.
        refused_only(*await watched(server, mid, {"t": "sync"}))
        refused_only(*await watched(server, mid, {"t": "hello", "account": True}, other),
                     "no_seat")
        refused_only(*await watched(server, mid, {"t": "hello", "token": "x" * 20}, other),
                     "bad_token")
        w = await Client.open(server.ws, f"{mid}", "wrong-token")
        try:
            while True:
                await w.recv(timeout=20)
        except websockets.ConnectionClosed:
            pass
        assert w.conn.close_code == SEALED_CLOSE
        assert not [f for f in w.raw if '"t":"state"' in f or '"t":"welcome"' in f]
        # The match's public answers name no move of the line.
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as anyone:
            for path in ("", "/players", "/chat", "/rated"):
                r = await anyone.get(f"/api/matches/{mid}{path}")
                assert r.status_code == 200, (path, r.text)
                assert not any(f'"{a}"' in r.text for a in line), (path, r.text)
                assert '"events"' not in r.text and '"view"' not in r.text
            for path in ("record", "replay?step=1", "analysis"):
                r = await anyone.get(f"/api/matches/{mid}/{path}")
                assert r.status_code == 403, r.text
        # The player's socket still plays, and finishes the attempt.
        await move()
        await c.send("act", action="resign")
        await c.until(lambda s: s["outcome"] is not None)
        await c.close()
        refused_only(*await watched(server, mid, {"t": "sync"}))
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as anyone:
            for path in ("record", "replay?step=1", "analysis"):
                r = await anyone.get(f"/api/matches/{mid}/{path}")
                assert r.status_code == 403 and r.json()["detail"]["code"] == \
                    "daily_running", r.text
    finally:
        await me.aclose()
        await other.aclose()

    # The day is over (its end moved to the past, in the database and the live room):
    # anyone watches the attempt, moves and all.
    past = datetime.now(UTC) - timedelta(seconds=1)
    engine = create_engine(server.settings.db_url)
    with engine.begin() as conn:
        conn.execute(update(matches).where(matches.c.id == mid).values(sealed_until=past))
    engine.dispose()
    live = server.services.rooms.sessions.get(mid)
    if live is not None:
        live.row.sealed_until = past
    w = await Client.open(server.ws, mid)
    await w.expect("welcome")
    await w.expect("state")
    await w.send("sync", v=0)
    events = (await w.expect("state"))["d"]["events"]
    acted = [e["action"] for e in events if e["kind"] == "act"]
    assert acted[:len(line)] == line, acted
    await w.close()
