"""The leaderboard page when choices come faster than the answers (CI saw the computer
ladder titled "4 spillere" after 3 was chosen): a leaderboard answer for an older
choice that comes last draws nothing and asks for nothing more; the page shows the
newest choice's leaderboard and computer ladder, titles included."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import need_game

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"


def test_an_older_choices_late_answer_draws_nothing(contexts: Any, server: str) -> None:
    need_game(GAME)
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.add_init_script("localStorage.setItem('spillebord.lang', 'da');")
    page.goto(f"{server}/leaderboard?game={GAME}")
    page.wait_for_selector("body.leaderboard-page[data-ready='1']")
    held: list[Any] = []
    page.route(f"**/api/leaderboard/{GAME}?seats=5",
               lambda route: held.append(route))  # 5's answer waits
    page.select_option("#board-seats", "5")
    page.select_option("#board-seats", "3")
    page.wait_for_function("() => document.querySelector('#bots-title')"
                           ".textContent.includes('3 spillere')")
    while not held:
        page.wait_for_timeout(20)
    drawn = page.inner_html("#board")
    try:  # the old choice's answer comes now: before the fix it went on to draw 5's ladder
        with page.expect_request(f"**/api/bot-ladder/{GAME}?seats=5", timeout=2000):
            held[0].continue_()
        asked_more = True
    except PlaywrightTimeout:
        asked_more = False
    page.wait_for_timeout(300)
    assert not asked_more, "the older choice's answer went on to ask for its ladder"
    assert "3 spillere" in page.inner_text("#bots-title")
    assert "3 spillere" in page.inner_text("#board-title")
    assert page.inner_html("#board") == drawn
