"""Every registered bot of every game plays its seat over the wire (server-side, in the
bot process), and bot options are checked when the match is created."""

from __future__ import annotations

import httpx
import pytest
from tests.server.live import Client, LiveServer, create

from spillebord import bots, games

BOT_SEATS = [(k, name) for k in list(games.keys()) for name in bots.names(k)]


@pytest.mark.parametrize(("key", "bot"), BOT_SEATS)
async def test_each_bot_plays_its_seat(server: LiveServer, key: str, bot: str) -> None:
    game = games.load(key)
    others = [{"bot": "random"}] * (game.seat_counts[0] - 1)
    made = await create(server.http, game=key, seats=[{"bot": bot}, *others])
    watcher = await Client.open(server.ws, made["match_id"])
    await watcher.expect("welcome")
    await watcher.send("sync", v=0)

    def bot_moves(s: dict) -> int:
        return sum(1 for e in s["events"] if e["seat"] == 0)

    # After the sync from 0 every event is listed in exactly one state message.  Watch
    # until the bot has made three moves or the game is over.
    seen, over = 0, False
    while seen < 3 and not over:
        msg = await watcher.recv(timeout=60)
        if msg["t"] == "state":
            seen += bot_moves(msg["d"])
            over = msg["d"]["outcome"] is not None
    # Seat 0 moves first in every game, so a game that ended has a move of the bot too.
    assert seen >= 1, "the bot never moved"
    # A sync's answer may arrive after a newer broadcast (protocol.md): order by seq.
    by_seq = {e["seq"]: e for msg in watcher.seen if msg["t"] == "state"
              for e in msg["d"]["events"]}
    events = [by_seq[n] for n in sorted(by_seq)]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["seat"] == 0
    assert all(e.get("by") == "bot" for e in events)
    await watcher.close()


async def test_bot_options_are_checked(server: LiveServer) -> None:
    key, bot = next(((k, b) for k, b in BOT_SEATS if b != "random"), (None, None))
    if key is None:
        pytest.skip("no game has a bot with options yet")
    n = games.load(key).seat_counts[0]
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/matches", json={
            "game": key, "seats": [{"bot": bot, "options": {"no_such_option": 1}}] * n})
        assert r.status_code == 400, r.text
        assert r.json()["detail"]["code"] == "bad_bot_options"
        # Bots share one worker: no thinking for an hour, no billions of playouts.
        for options in ({"seconds": 3600}, {"playouts": 10**9}):
            r = await http.post("/api/matches", json={
                "game": key, "seats": [{"bot": bot, "options": options}] * n})
            assert r.status_code == 400 and r.json()["detail"]["code"] == "bad_bot_options"


LEVEL_SEATS = [(k, n) for k in list(games.keys()) for n in sorted(bots.levels(k))]


@pytest.mark.parametrize(("key", "level"), LEVEL_SEATS)
async def test_each_level_makes_a_table(server: LiveServer, key: str, level: int) -> None:
    """Every level the page offers creates a table, given alone or with its own bot."""
    n = games.load(key).seat_counts[0]
    bot = bots.levels(key)[level].bot
    made = await create(server.http, game=key,
                        seats=[{"level": level}, {"bot": bot, "level": level},
                               *[{"bot": "random"}] * (n - 2)])
    async with httpx.AsyncClient(base_url=server.http) as http:
        info = (await http.get(f"/api/matches/{made['match_id']}")).json()
    assert [(s["bot"], s["level"]) for s in info["seats"][:2]] == [(bot, level)] * 2


@pytest.mark.parametrize("seat", [
    {"bot": "random", "options": {"zzz": 1}},
    {"bot": "random", "level": 1},
    {"level": 4},
    {"level": True},
    {"level": 1, "options": {"seconds": 1}},
    {},
])
async def test_bad_bot_seats_are_refused(server: LiveServer, seat: dict) -> None:
    key = next(k for k in list(games.keys()) if bots.levels(k))
    n = games.load(key).seat_counts[0]
    async with httpx.AsyncClient(base_url=server.http) as http:
        r = await http.post("/api/matches", json={"game": key, "seats": [seat] * n})
        assert r.status_code == 400, r.text
        assert r.json()["detail"]["code"] == "bad_bot_options", r.text
