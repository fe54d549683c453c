"""The computer ladder on the leaderboard page, in Chromium (issue 32): a declared bot
account plays Gammel Jomfru against the site's levels 1 and 2 through the bot client;
a newcomer finds the ladder from the start page (Danish desktop) and on a phone
(English), and sees the account by its name and the levels by theirs — never a bot key
or a ladder entry's internal form; axe-core finds no serious violation on either."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from spillebord.research.live import LiveAgent, view_policy

from .helpers import need_game, shot
from .test_axe import serious

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAME = "gammel_jomfru"
INTERNAL = ("level:", "bot:", "gammel_jomfru", "ismcts", "heuristic", "undefined", "null")


def first_legal(_view: dict[str, Any], legal: list[str]) -> str:
    return legal[0]


def test_the_computer_ladder_shows_accounts_and_levels_by_name(contexts: Any,
                                                               server: str) -> None:
    need_game(GAME)
    bot_name = f"Robotta{int(time.time() * 1000) % 100000}"

    async def play_games() -> None:
        async with LiveAgent(server, view_policy(first_legal), bot_name,
                             "en lang nok adgangskode 42") as agent:
            await agent.sign_in(sign_up=True, about="spiller altid det første træk")
            seated = await agent.create(GAME, 3, [1, 2])
            await agent.play(seated)
        deadline = time.monotonic() + 30  # the ladder rates a finished match within ≈ 1 s
        async with httpx.AsyncClient(base_url=server) as http:
            while time.monotonic() < deadline:
                r = await http.get(f"/api/bot-ladder/{GAME}", params={"seats": 3})
                if any(e["name"] == bot_name for e in r.json()["entries"]):
                    return
                await asyncio.sleep(0.3)
        pytest.fail("the match never reached the bot ladder")

    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        pool.submit(asyncio.run, play_games()).result()

    # Danish desktop: from the start page to the leaderboard, the game and 3 players
    # chosen, then the link down to the computers' ladder.
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    a.goto(server + "/")
    a.evaluate("() => localStorage.setItem('spillebord.lang', 'da')")
    a.goto(server + "/")
    a.wait_for_selector("body[data-ready='1']")
    a.click("#to-leaderboard")
    a.wait_for_selector("body.leaderboard-page[data-ready='1']")
    a.select_option("#board-game", GAME)
    a.select_option("#board-seats", "3")
    a.click("#bots-link")
    board = a.locator("#bots-board")
    # The ladder of the newest choice (3 players) drawn: the title first — 3 and 4
    # players are one rating class, so the bot is on the 4-player ladder drawn for the
    # game's default seat count too (CI read that one while the 3's answer was on its way)
    a.wait_for_function("() => document.querySelector('#bots-title').textContent"
                        ".includes('3 spillere')")
    a.wait_for_function("n => document.querySelector('#bots-board').textContent.includes(n)",
                        arg=bot_name)
    text = board.inner_text()
    assert "Computer (Let)" in text and "Computer (Mellem)" in text
    assert "computerkonto: spiller altid det første træk" in text
    assert "sidens egen computer" in text
    assert "Computernes rangliste: Gammel Jomfru, 3 spillere" in a.inner_text("#bots-title")
    for word in INTERNAL:
        assert word not in text, word
    chart = a.locator("#bots-chart svg")
    assert chart.get_attribute("aria-label") == "Computernes rating"
    assert bot_name in chart.inner_html() and "Computer (Let)" in chart.inner_html()
    assert chart.locator("circle.dot").count() == board.locator("tbody tr").count() == 3
    shot(a, "bot-ladder-da-1366")
    assert serious(a) == []

    # English phone, straight to the page by its address.
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    b.goto(server + "/")
    b.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    b.goto(server + f"/leaderboard?game={GAME}&seats=3#bots")
    b.wait_for_selector("body.leaderboard-page[data-ready='1']")
    b.wait_for_function("n => document.querySelector('#bots-board').textContent.includes(n)",
                        arg=bot_name)
    text = b.inner_text("#bots-board")
    assert "Computer (Easy)" in text and "Computer (Medium)" in text
    assert "the site's own computer" in text
    assert "Computer leaderboard: Old Maid (turn-up game), 3 players" in b.inner_text("#bots-title")
    for word in INTERNAL:
        assert word not in text, word
    # the chart fits the phone's width
    box = b.locator("#bots-chart svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    b.locator("#bots").scroll_into_view_if_needed()
    shot(b, "bot-ladder-en-390")
    assert serious(b) == []
