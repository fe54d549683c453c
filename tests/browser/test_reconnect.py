"""A page that loses its socket while the game goes on: after it reconnects it shows the
new position and its move log holds every event, each once and in order — the events
of the outage included (the page asks for them with `sync` from the last version it
saw)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.sync.client import connect

from .helpers import api, need_game, version, wait_ready

pytestmark = pytest.mark.browser


def play_elsewhere(server: str, match_id: str, token: str, n: int) -> list[str]:
    """Play ``n`` card moves on another socket of the same seat; their action texts."""
    played: list[str] = []
    with connect(f"{server.replace('http', 'ws', 1)}/ws/{match_id}?token={token}") as ws:
        msg = json.loads(ws.recv())
        while msg["t"] != "state":
            msg = json.loads(ws.recv())
        for _ in range(n):
            legal = [a for a in msg["d"]["legal"] if a not in ("redeal", "resign")]
            assert legal, "the deal ran out of card moves"
            ws.send(json.dumps({"t": "act", "v": msg["v"], "d": {"action": legal[0]}}))
            msg = json.loads(ws.recv())
            assert msg["t"] == "state", msg
            played.append(legal[0])
    return played


def test_a_page_that_reconnects_gets_the_events_it_missed(contexts: Any,
                                                          server: str) -> None:
    need_game("posthus")
    made = api(server, "/api/matches", {"game": "posthus", "deal": 5})
    ctx = contexts(viewport={"width": 1000, "height": 800})
    ctx.allowed.append("WebSocket")  # the failed connection attempts while offline
    page = ctx.new_page()
    page.goto(server + made["play_url"])
    wait_ready(page)
    first = play_elsewhere(server, made["match_id"], made["token"], 2)
    page.wait_for_function("() => window.__spillebord.session.version === 2")

    ctx.context.set_offline(True)
    page.evaluate("() => window.__spillebord.session.drop()")
    page.wait_for_function("() => window.__spillebord.session.ws === null")
    missed = play_elsewhere(server, made["match_id"], made["token"], 3)
    ctx.context.set_offline(False)  # the page reconnects at once ("online")

    page.wait_for_function("() => window.__spillebord.session.version === 5 && "
                           "window.__spillebord.log.length === 5", timeout=20000)
    log = page.evaluate("() => window.__spillebord.log")
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5]
    assert [e["action"] for e in log] == first + missed
    assert version(page) == 5
    assert page.evaluate("() => document.getElementById('connection').hidden")
