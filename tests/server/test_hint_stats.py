"""Hints in the statistics (issue 27) against the real app and SQLite: a player's
Posthuskabalen games — won after 2 hints, won without one, resigned after 1 hint — give
``GET /api/players/{id}/stats`` the hints in all, the wins without hints and the hints
per game and per won game, each game's hints on the timeline, and "Dine spil" (``GET
/api/me/games``, signed in) each solitaire's hints; a table game has none."""

from __future__ import annotations

import random
from typing import Any

import httpx
from tests.browser.test_extras import DEAL, WIN
from tests.server.live import Client, LiveServer, create, play_randomly


async def game(server: LiveServer, player: str, hints: int, moves: list[str]) -> str:
    made = await create(server.http, game="posthus", seats=["me"], deal=DEAL, player=player)
    c = await Client.open(server.ws, made["match_id"], made["token"])
    await c.expect("welcome")
    await c.expect("state")
    for n, action in enumerate([*moves, "resign"], 1):
        if c.state is not None and c.state["outcome"] is not None:
            break
        if n <= hints:  # one hint at each of the first positions (asked again at the
            # same position, a hint is answered again and not counted again)
            await c.send("hint")
            assert (await c.expect("hint", timeout=30))["d"]["hints"] == n
        v = c.version
        await c.send("act", action=action)
        await c.until(lambda s, v=v: c.version > v)
    assert c.state is not None and c.state["outcome"] is not None
    await c.close()
    return str(made["match_id"])


async def test_hints_are_counted_in_the_statistics_and_the_games(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http, timeout=30) as http:
        player = (await http.post("/api/players")).json()["player_id"]
        helped = await game(server, player, 2, WIN)
        alone = await game(server, player, 0, WIN)
        gave_up = await game(server, player, 1, WIN[:3])
        table = await create(server.http, game="gammel_jomfru", player=player,
                             seats=["me", {"bot": "random"}])
        c = await Client.open(server.ws, table["match_id"], table["token"])
        await play_randomly(c, random.Random(3))
        await c.close()

        stats: dict[str, Any] = (await http.get(f"/api/players/{player}/stats")).json()
        posthus = stats["by_game"]["posthus"]
        assert (posthus["finished"], posthus["wins"]) == (3, 2)
        assert posthus["hints"] == 3 and posthus["won_without_hints"] == 1
        assert posthus["hints_per_game"] == 1.0  # 3 hints / 3 games
        assert posthus["hints_per_win"] == 1.0  # 2 hints in won games / 2 wins
        jomfru = stats["by_game"]["gammel_jomfru"]
        assert jomfru["hints"] is None and jomfru["won_without_hints"] is None
        assert jomfru["hints_per_game"] is None and jomfru["hints_per_win"] is None
        on_timeline = {p["match_id"]: p.get("hints") for p in stats["timeline"]}
        assert on_timeline == {helped: 2, alone: 0, gave_up: 1, table["match_id"]: None}

        # Signed in, "Dine spil" says each solitaire's hints (a table game: null).
        r = await http.post("/api/account", json={"name": f"Tip {player[:6]}",
                                                  "password": "Fire tip og en kabale"},
                            headers={"X-Player": player})
        assert r.status_code == 201, r.text
        mine = (await http.get("/api/me/games")).json()["games"]
        hints = {g["match_id"]: g["hints"] for g in mine}
        assert hints == {helped: 2, alone: 0, gave_up: 1, table["match_id"]: None}
