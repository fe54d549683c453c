"""Solitaire extras over the wire: unlimited recorded undo/redo, click-to-move, hints,
the solver's verdict, winnable deals, and the record of one's own running game."""

from __future__ import annotations

import random
import re

import httpx
import pytest
from tests.server.live import Client, LiveServer, create

from spillebord import games
from spillebord.server.infra.compute import solver_offers

SOLO = [k for k in list(games.keys()) if games.load(k).is_solitaire]


async def opened(server: LiveServer, key: str, **body: object) -> tuple[dict, Client]:
    made = await create(server.http, game=key, **body)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    return made, c


async def step(c: Client, t: str, **d: object) -> dict:
    v0 = c.version
    await c.send(t, **d)
    msg = await c.recv()
    assert msg["t"] == "state" and msg["v"] == v0 + 1, msg
    return msg["d"]


@pytest.mark.parametrize("key", SOLO)
async def test_undo_redo_recorded(server: LiveServer, key: str) -> None:
    made, c = await opened(server, key, deal=3)
    assert c.state["can_undo"] is False and c.state["can_redo"] is False
    await c.send("undo")
    assert (await c.recv())["d"]["code"] == "nothing_to_undo"
    await c.send("redo")
    assert (await c.recv())["d"]["code"] == "nothing_to_redo"
    views = [c.state["view"]]
    played = []
    for _ in range(3):
        calm = [a for a in c.state["legal"] if a not in ("resign",)]
        played.append(calm[0])
        views.append((await step(c, "act", action=calm[0]))["view"])
    d = await step(c, "undo")
    assert d["view"] == views[2] and d["can_redo"] and d["events"][0]["kind"] == "undo"
    d = await step(c, "undo")
    assert d["view"] == views[1]
    d = await step(c, "redo")
    assert d["view"] == views[2] and d["can_redo"] and d["events"][0]["action"] == played[1]
    for _ in range(2):          # unlimited: back to the very start
        d = await step(c, "undo")
    assert d["view"] == views[0] and not d["can_undo"]
    d = await step(c, "act", action=played[0])
    assert not d["can_redo"]     # a new action drops the redo history
    await c.send("redo")
    assert (await c.recv())["d"]["code"] == "nothing_to_redo"
    async with httpx.AsyncClient(base_url=server.http) as http:
        url = f"/api/matches/{made['match_id']}/record"
        assert (await http.get(url)).status_code == 403
        bad = await http.get(url, headers={"Authorization": "Bearer nope"})
        assert bad.status_code == 403 and bad.json()["detail"]["code"] == "running"
        rec = (await http.get(url, headers={"Authorization": f"Bearer {made['token']}"})).json()
    assert rec["record"]["actions"] == [played[0]]
    kinds = [e["kind"] for e in rec["events"]]
    assert kinds == ["act", "act", "act", "undo", "undo", "redo", "undo", "undo", "act"]
    await c.close()


def click_targets(legal: list[str]) -> list[str]:
    found: list[str] = ["stock", "row", "waste"]
    for text in legal:
        found += [t for t in re.split(r"[ >]", text) if t]
    return sorted(set(found))


@pytest.mark.parametrize("key", SOLO)
async def test_click_to_move(server: LiveServer, key: str) -> None:
    game = games.load(key)
    _made, c = await opened(server, key, deal=5)
    state = game.new(deal=5)
    meanings: dict[str, list[str]] = {}
    for target in click_targets(c.state["legal"]):
        try:
            meanings[target] = [str(a) for a in game.click(state, target)]
        except ValueError:   # not a clickable place: the server answers no_move
            meanings[target] = []
    none = next((t for t, m in meanings.items() if not m), None)
    several = next((t for t, m in meanings.items() if len(m) > 1), None)
    one = next((t for t, m in meanings.items() if len(m) == 1), None)
    if none is not None:
        await c.send("click", target=none)
        assert (await c.recv())["d"]["code"] == "no_move"
    if several is not None:
        await c.send("click", target=several)
        msg = await c.recv()
        assert msg["t"] == "choices" and msg["d"]["actions"] == meanings[several]
    assert one is not None, f"no click means exactly one action in {meanings}"
    await c.send("click", v=c.version + 3, target=one)
    assert (await c.recv())["d"]["code"] == "stale"
    d = await step(c, "click", target=one)
    assert d["events"][0]["action"] == meanings[one][0]
    assert d["view"] == state.apply(meanings[one][0]).view(0)
    await c.close()


@pytest.mark.parametrize("key", SOLO)
async def test_hint_and_verdict(server: LiveServer, key: str) -> None:
    _made, c = await opened(server, key, deal=1)
    await c.send("hint")
    msg = await c.expect("hint", timeout=60) if solver_offers(key, "hint") else await c.recv()
    if solver_offers(key, "hint"):
        assert msg["v"] == 0
        assert msg["d"]["action"] is None or msg["d"]["action"] in c.state["legal"]
    else:
        assert msg["d"]["code"] == "no_solver"
    await c.send("verdict")
    if solver_offers(key, "solve"):
        msg = await c.expect("verdict", timeout=60)
        assert msg["d"]["verdict"] in ("winnable", "unwinnable", "unknown")
    else:
        assert (await c.recv())["d"]["code"] == "no_solver"
    # A spectator may not ask the solver.
    watcher = await Client.open(server.ws, _made["match_id"])
    await watcher.expect("welcome")
    await watcher.expect("state")
    await watcher.send("hint")
    assert (await watcher.recv())["d"]["code"] == "spectator"
    await watcher.close()
    await c.close()


@pytest.mark.parametrize("key", SOLO)
async def test_winnable_deal(server: LiveServer, key: str) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        r = await http.post("/api/matches", json={"game": key, "deal": "winnable"})
        info = (await http.get("/api/games")).json()
    offered = next(g for g in info if g["key"] == key)["winnable"]
    if offered:
        assert r.status_code == 201, r.text
        async with httpx.AsyncClient(base_url=server.http) as http:
            match = (await http.get(f"/api/matches/{r.json()['match_id']}")).json()
        assert isinstance(match["deal"], int)
    else:
        assert r.status_code == 400 and r.json()["detail"]["code"] == "no_solver"


@pytest.mark.parametrize("key", SOLO)
async def test_undo_across_checkpoints(server: LiveServer, key: str) -> None:
    """Long undo chains: the server keeps a state every 32 actions and replays the rest;
    every undo must give back exactly the earlier view."""
    game = games.load(key)
    _made, c = await opened(server, key, deal=8)
    rng = random.Random(8)
    state = game.new(deal=8)
    views = [c.state["view"]]
    while len(views) <= 70:
        # only actions that keep the game going (a finished game cannot be undone)
        options = [a for a in c.state["legal"]
                   if a != "resign" and state.apply(a).outcome is None]
        if not options:
            break
        action = rng.choice(options)
        state = state.apply(action)
        views.append((await step(c, "act", action=action))["view"])
    assert len(views) > 33, "the deal ended too soon to cross a checkpoint"
    for expected in reversed(views[:-1]):
        assert (await step(c, "undo"))["view"] == expected
    for expected in views[1:6]:
        assert (await step(c, "redo"))["view"] == expected
    await c.close()
