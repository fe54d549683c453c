"""Full games over the wire for every registered game: a human seat playing random legal
actions against server-side bots, watched by a spectator.  Every state message a seat or
the spectator received is checked against the game itself: the view is exactly
``state.view(seat)`` at that version (so no hidden card can leak), the legal list is
exactly the state's legal actions, and a table game's deal number never appears on the
wire before the end."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from tests.server.live import Client, LiveServer, create, play_randomly, table_seats

from spillebord import games
from spillebord.core.protocol import State
from spillebord.core.record import GameRecord

KEYS = games.keys()


def replay_states(record: dict[str, Any], events: list[dict[str, Any]]) -> list[State]:
    """The state after each event (index = version), undo and redo included."""
    rec = GameRecord.from_json({**record["record"], "actions": []})
    stack = [rec.start(games.load(rec.game))]
    undone: list[State] = []
    out = [stack[-1]]
    for e in events:
        if e["kind"] == "act":
            stack.append(stack[-1].apply(e["action"]))
            undone.clear()
        elif e["kind"] == "undo":
            undone.append(stack.pop())
        else:
            stack.append(undone.pop())
        out.append(stack[-1])
    return out


def check_messages(client: Client, seat: int | None, states: list[State]) -> int:
    checked = 0
    for msg in client.seen:
        if msg["t"] != "state":
            continue
        state = states[msg["v"]]
        d = msg["d"]
        assert d["seat"] == seat
        assert d["view"] == state.view(seat), f"view differs at version {msg['v']}"
        expected = ([str(a) for a in state.legal_actions()]
                    if seat is not None and state.to_move == seat else [])
        assert d["legal"] == expected
        assert d["to_move"] == state.to_move
        # Move facts for pages: those of the seat's legal actions, and of each event.
        game = state.game
        facts = {a: game.describe(state, a) for a in expected}
        assert d.get("moves", {}) == {a: f for a, f in facts.items() if f is not None}
        for e in d["events"]:
            if e["kind"] != "undo":
                before, after = states[e["seq"] - 1], states[e["seq"]]
                assert e.get("move") == game.describe(before, e["action"], after)
        checked += 1
    return checked


# Games whose action texts do not name the card: the server sends move facts.
DESCRIBED = {"kugler", "gammel_jomfru", "studenter"}


def test_games_describe_their_moves() -> None:
    """Kugler, Gammel Jomfru and Studenterkabalen send move facts (Studenterkabalen's
    texts name places, not the card); Posthuskabalen's texts name the card."""
    for key in KEYS:
        game = games.load(key)
        state = game.new(deal=5, seats=game.default_seats)
        first = str(state.legal_actions()[0])
        assert (game.describe(state, first) is not None) == (key in DESCRIBED), key


@pytest.mark.parametrize("key", KEYS)
async def test_full_game_with_bots(server: LiveServer, key: str) -> None:
    game = games.load(key)
    made = await create(server.http, game=key, seats=table_seats(game))
    mid = made["match_id"]
    me = await Client.open(server.ws, mid, made["token"])
    watcher = await Client.open(server.ws, mid)
    welcome = await me.recv()
    assert welcome["t"] == "welcome" and welcome["d"]["role"] == "player"
    assert (await watcher.recv())["d"]["role"] == "spectator"
    final = await play_randomly(me, random.Random(key))
    await watcher.until(lambda s: s["outcome"] is not None)
    assert final["outcome"] == watcher.state["outcome"]
    assert final["status"] == "finished"

    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{mid}")).json()
        rec = (await http.get(f"/api/matches/{mid}/record")).json()
    assert info["status"] == "finished" and info["version"] == me.version
    assert info["deal"] == rec["record"]["deal"]
    record = GameRecord.from_json(rec["record"])
    end = record.replay(game)
    assert end.outcome is not None and end.outcome.to_json() == final["outcome"]
    assert rec["outcome"] == final["outcome"]
    assert [e["seq"] for e in rec["events"]] == list(range(1, me.version + 1))
    if not game.is_solitaire:
        assert all(e.get("by") == "bot" for e in rec["events"] if e["seat"] != 0)
        assert not any(e.get("by") for e in rec["events"] if e["seat"] == 0)
        # The deal number decides every hidden card: never on the wire before the end.
        deal = str(record.deal)
        for text in me.raw[:-1] + watcher.raw[:-1]:
            assert deal not in text
    # The replay endpoint: the spectator view after N effective actions.
    actions = rec["record"]["actions"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        for n in sorted({0, len(actions) // 2, len(actions)}):
            got = (await http.get(f"/api/matches/{mid}/replay", params={"step": n})).json()
            short = GameRecord.from_json({**rec["record"], "actions": actions[:n]})
            assert got["view"] == short.replay(game).view(None) and got["total"] == len(actions)
        mine = await http.get(f"/api/matches/{mid}/replay", params={"step": 1},
                              headers={"Authorization": f"Bearer {made['token']}"})
        assert mine.json()["seat"] == 0
        short = GameRecord.from_json({**rec["record"], "actions": actions[:1]})
        assert mine.json()["view"] == short.replay(game).view(0)
        too_far = await http.get(f"/api/matches/{mid}/replay",
                                 params={"step": len(actions) + 1})
        assert too_far.status_code == 404
    states = replay_states(rec, rec["events"])
    for e in rec["events"]:  # the record's events carry the same facts
        if e["kind"] != "undo":
            assert e.get("move") == game.describe(states[e["seq"] - 1], e["action"],
                                                  states[e["seq"]])
    assert check_messages(me, 0, states) >= 2
    assert check_messages(watcher, None, states) >= 2
    await me.close()
    await watcher.close()


@pytest.mark.parametrize("key", [k for k in KEYS if not games.load(k).is_solitaire])
async def test_bots_only_game_to_the_end(server: LiveServer, key: str) -> None:
    game = games.load(key)
    n = game.seat_counts[-1]
    made = await create(server.http, game=key, seats=[{"bot": "random"}] * n)
    assert made["token"] is None and made["seat"] is None
    watcher = await Client.open(server.ws, made["match_id"])
    st = await watcher.until(lambda s: s["outcome"] is not None, timeout=120)
    assert st["status"] == "finished" and st["legal"] == []
    await watcher.close()
