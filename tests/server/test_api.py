"""The HTTP API: game list, match creation and its refusals, invites (single use),
records, player statistics, the pages and the OpenAPI docs."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, play_randomly, table_seats

from spillebord import bots, games

KEYS = list(games.keys())
TABLE = next((k for k in KEYS if not games.load(k).is_solitaire), None)
SOLO = next((k for k in KEYS if games.load(k).is_solitaire), None)


async def test_games_list(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        listed = (await http.get("/api/games")).json()
    assert [g["key"] for g in listed] == KEYS
    for g in listed:
        game = games.load(g["key"])
        assert g["seats"] == list(game.seat_counts)
        assert g["bots"] == bots.names(g["key"]) and "random" in g["bots"]
        assert [f["name"] for f in g["flags"]] == [f.name for f in game.flag_specs]
        assert isinstance(g["solver"], bool) and isinstance(g["winnable"], bool)


@pytest.mark.parametrize(("body", "code"), [
    ({"game": "chess"}, "unknown_game"),
    ({"game": KEYS[0], "flags": {"no_such_flag": True}}, "bad_flags"),
    ({"game": KEYS[0], "seats": ["me"] * 9}, None),  # over the 8-seat cap: 422
    ({"game": KEYS[0], "seats": [{"bot": "nobody"}] * games.load(KEYS[0]).seat_counts[0]},
     "unknown_bot"),
    ({"game": KEYS[0], "deal": -1}, "bad_deal"),
    ({"game": KEYS[0], "deal": 2**64}, "bad_deal"),
    ({"game": KEYS[0], "deal": "soon"}, None),
    ({"game": KEYS[0], "takeover_seconds": 0}, "bad_request"),
    ({"game": KEYS[0], "player": "x"}, "bad_player"),
])
async def test_create_refusals(server: LiveServer, body: dict[str, Any],
                               code: str | None) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/matches", json=body)
    if code is None:
        assert r.status_code == 422
        detail = r.json()["detail"]
        assert detail["code"] == "bad_request" and detail["reason"] and detail["errors"]
    else:
        assert r.status_code == 400, r.text
        assert r.json()["detail"]["code"] == code and r.json()["detail"]["reason"]


@pytest.mark.skipif(TABLE is None, reason="no table game registered")
async def test_seat_count_and_two_mes(server: LiveServer) -> None:
    assert TABLE is not None
    wrong = next(n for n in range(1, 9) if n not in games.load(TABLE).seat_counts)
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/matches", json={"game": TABLE, "seats": ["human"] * wrong})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_seats"
        n = games.load(TABLE).seat_counts[0]
        r = await http.post("/api/matches", json={"game": TABLE, "seats": ["me"] * n})
        assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_seats"


@pytest.mark.skipif(TABLE is None, reason="no table game registered")
async def test_invites_are_single_use_and_secret_deal(server: LiveServer) -> None:
    assert TABLE is not None
    n = games.load(TABLE).seat_counts[0]
    made = await create(server.http, game=TABLE, seats=["me", *["human"] * (n - 1)])
    assert len(made["invites"]) == n - 1 and len(made["token"]) >= 32
    code = made["invites"][0]["code"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{made['match_id']}")).json()
        assert info["deal"] is None and info["status"] == "running"
        assert [s["claimed"] for s in info["seats"]] == [True] + [False] * (n - 1)
        ok = await http.post(f"/api/invites/{code}/claim", json={})
        assert ok.status_code == 200
        got = ok.json()
        assert got["match_id"] == made["match_id"] and got["seat"] == 1
        assert got["token"] != made["token"]
        again = await http.post(f"/api/invites/{code}/claim")
        assert again.status_code == 410 and again.json()["detail"]["code"] == "invite_used"
        bad = await http.post("/api/invites/not-a-code/claim")
        assert bad.status_code == 404 and bad.json()["detail"]["code"] == "bad_invite"
        rec = await http.get(f"/api/matches/{made['match_id']}/record")
        assert rec.status_code == 403
        # A seat's own token does not open a running table game's record or replay.
        mine = {"Authorization": f"Bearer {made['token']}"}
        rec = await http.get(f"/api/matches/{made['match_id']}/record", headers=mine)
        assert rec.status_code == 403 and rec.json()["detail"]["code"] == "running"
        step = await http.get(f"/api/matches/{made['match_id']}/replay", headers=mine)
        assert step.status_code == 403
        missing = await http.get("/api/matches/nope")
        assert missing.status_code == 404 and missing.json()["detail"]["code"] == "not_found"
    c = await Client.open(server.ws, made["match_id"], got["token"])
    assert (await c.expect("welcome"))["d"]["seat"] == 1
    await c.close()


async def test_player_statistics(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/players")
        assert r.status_code == 201
        pid = r.json()["player_id"]
        empty = (await http.get(f"/api/players/{pid}/stats")).json()
        assert empty["games"] == 0 and empty["timeline"] == []
    played: list[tuple[str, dict[str, Any]]] = []
    for key in KEYS:
        game = games.load(key)
        made = await create(server.http, game=key, seats=table_seats(game), player=pid)
        c = await Client.open(server.ws, made["match_id"], made["token"])
        final = await play_randomly(c, random.Random(1), max_actions=40)
        played.append((key, final["outcome"]))
        await c.close()
    async with httpx.AsyncClient(base_url=server.http) as http:
        stats = (await http.get(f"/api/players/{pid}/stats",
                                headers={"X-Player": pid})).json()
    wins = sum(0 in o["winners"] for _k, o in played)
    bonus = sum(o["bonus"] for _k, o in played if 0 in o["winners"])
    assert stats["games"] == stats["finished"] == len(KEYS)
    assert stats["wins"] == wins and stats["bonus"] == bonus
    assert len(stats["timeline"]) == len(KEYS)
    assert stats["timeline"][-1]["cumulative_wins"] == wins
    for point in stats["timeline"]:  # with the UTC offset, like the match info (issue 16)
        assert point["time"].endswith("+00:00"), point
    assert set(stats["by_game"]) == set(KEYS)
    table_keys = [k for k in KEYS if not games.load(k).is_solitaire]
    assert {(b["game"], b["bot"]) for b in stats["bots"]} == {(k, "random") for k in table_keys}
    for b in stats["bots"]:
        outcome = dict(played)[b["game"]]
        assert b["games"] == 1 and b["player_wins"] == int(0 in outcome["winners"])


async def test_pages_and_docs(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        for path in ("/", "/play/abc", "/join/xyz", "/replay/abc"):
            r = await http.get(path)
            assert r.status_code == 200 and "text/html" in r.headers["content-type"]
        assert (await http.get("/docs")).status_code == 200
        schema = (await http.get("/openapi.json")).json()
        assert "/api/matches" in schema["paths"]
        assert (await http.get("/static/no-such-file.js")).status_code == 404
