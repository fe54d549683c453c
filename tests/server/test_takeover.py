"""Bot takeover: a human seat whose sockets are all gone for the room's
``takeover_seconds`` is played by a bot until its token connects again."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from tests.server.live import Client, LiveServer, create

from spillebord import games

TABLE = next((k for k in list(games.keys()) if not games.load(k).is_solitaire), None)


@pytest.mark.skipif(TABLE is None, reason="no table game registered")
async def test_absent_human_is_taken_over_and_comes_back(server: LiveServer) -> None:
    assert TABLE is not None
    n = games.load(TABLE).seat_counts[0]
    made = await create(server.http, game=TABLE, seats=["me", *["human"] * (n - 1)],
                        takeover_seconds=1)
    mid = made["match_id"]
    c = await Client.open(server.ws, mid, made["token"])
    await c.expect("welcome")
    st = await c.expect("state")
    # Without takeover the game would wait for seat 0 forever; here nobody plays seat 0
    # for 1 s, then the takeover bot plays for it (and for the never-claimed seats).
    await c.close()
    await asyncio.sleep(0.3)
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{mid}")).json()
        assert info["version"] == 0 and not info["seats"][0]["bot_playing"]
        for _ in range(100):
            await asyncio.sleep(0.1)
            info = (await http.get(f"/api/matches/{mid}")).json()
            if info["version"] > 2:
                break
        assert info["version"] > 2
    back = await Client.open(server.ws, mid, made["token"])
    await back.expect("welcome")
    await back.expect("state")
    await back.send("sync", v=0)
    history = await back.until(lambda s: bool(s["events"]) and s["events"][0]["seq"] == 1)
    mine = [e for e in history["events"] if e["seat"] == 0]
    assert mine and all(e.get("by") == "bot" for e in mine)
    # Back at the table: the seat is the human's again.  A takeover action already
    # being computed when the socket returned may still land; after that the game
    # waits for the human.
    for _ in range(20):
        st = await back.until(lambda s: s["outcome"] is not None or bool(s["legal"]))
        if st["outcome"] is not None:
            break
        v = back.version
        await asyncio.sleep(0.5)
        async with httpx.AsyncClient(base_url=server.http) as http:
            info = (await http.get(f"/api/matches/{mid}")).json()
        if info["version"] == v:
            assert info["seats"][0]["connected"] and not info["seats"][0]["bot_playing"]
            await back.send("act", action=st["legal"][0])
            await back.until(lambda s, v=v: back.version > v)
            first = back.state["events"][0]
            assert {k: first[k] for k in ("seq", "kind", "seat", "action")} == {
                "seq": v + 1, "kind": "act", "seat": 0, "action": st["legal"][0]}
            assert "by" not in first  # the human's own action, not the takeover bot's
            break
        await back.until(lambda s, want=info["version"]: back.version >= want)
    else:
        pytest.fail("the takeover bot kept playing the reconnected seat")
    await back.close()


async def test_takeover_disabled_by_default(server: LiveServer) -> None:
    key = next(iter(games.keys()))
    made = await create(server.http, game=key,
                        seats=["me", *[{"bot": "random"}] * (games.load(key).seat_counts[0] - 1)])
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{made['match_id']}")).json()
    assert info["takeover_seconds"] is None
    assert not info["seats"][0]["bot_playing"]
