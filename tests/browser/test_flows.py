"""Issue 14 §1, the flows a newcomer hit: every level and bot the start page offers opens
a table (and is named, never by its key); a reopened game always shows its board; the
host sees the invited friend arrive; one bonus at a Studenterkabalen win; a dropped
connection is announced on the page and to the other seats."""

from __future__ import annotations

import re
from typing import Any

import pytest

from spillebord import bots

from .helpers import api, need_game, open_room, state

pytestmark = pytest.mark.browser

BOT_KEYS = re.compile(r"\b(random|heuristic|search|greedy|ismcts)\b|Gammel/|level:|bot:")
TABLE_SEATS = {"gammel_jomfru": 2, "kugler": 4}


@pytest.mark.parametrize("game", list(TABLE_SEATS))
def test_every_offered_level_and_bot_opens_a_table(page: Any, server: str, game: str) -> None:
    need_game(game)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{game} summary")
    choice = page.locator(f"form[data-game='{game}'] select[name='bot-1']")
    values = choice.locator("option").evaluate_all("os => os.map(o => o.value)")
    labels = choice.locator("option").evaluate_all("os => os.map(o => o.textContent)")
    levels = sorted(bots.levels(game))
    assert values == [*(f"level:{n}" for n in levels), *(f"bot:{b}" for b in bots.names(game))]
    assert not any(BOT_KEYS.search(text) for text in labels), labels
    # The default opponent is a real level, not the random bot.
    assert choice.input_value() == f"level:{bots.default_level(game)}"
    for value in values:
        seats = ["me"] + ["bot"] * (TABLE_SEATS[game] - 1)
        open_room(page, server, game, seats, bot=value)
        match_id = page.url.rsplit("/", 1)[-1].split("#")[0]
        info = api(server, f"/api/matches/{match_id}")
        kind, _, name = value.partition(":")
        for seat in info["seats"][1:]:
            if kind == "level":
                assert (seat["bot"], seat["level"]) == (bots.levels(game)[int(name)].bot, int(name))
            else:
                assert (seat["bot"], seat["level"]) == (name, None)
        seat_list = page.locator("#seats").inner_text()
        assert "Computer 2" in seat_list and not BOT_KEYS.search(seat_list), seat_list
        assert state(page)["view"]
