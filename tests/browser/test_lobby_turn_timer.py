"""The lobby's turn timer in Chromium (issue 27): a host picks "30 sekunder" in the
lobby's "Hurtigt spil" form (Danish 1366×768) and lands at a new public table with that
timer; a phone in the lobby (English 390×844) sees the table listed as "30 s per turn",
takes the free seat with one click, and once the game runs the seat to move shows the
countdown from 30 s on both pages.  No internal words on any of these screens."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .helpers import api, name_myself, need_game, shot, wait_ready
from .test_table_timer import no_internal_words

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"


def left_seconds(page: Any) -> int:
    """The seconds on the countdown of the seat to move ("0:27 tilbage")."""
    pill = page.locator("#seats .turn-timer").first
    pill.wait_for(timeout=15000)
    found = re.search(r"(\d+):(\d\d)", pill.inner_text())
    assert found, pill.inner_text()
    return 60 * int(found.group(1)) + int(found.group(2))


def test_the_lobby_form_s_turn_timer_reaches_the_table(contexts: Any, server: str) -> None:
    need_game(GAME)
    stamp = int(time.time() * 1000) % 100000
    # The phone (English) waits in the lobby.
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    name_myself(b, server, f"Mobil {stamp}", lang="en")
    b.goto(server + "/lobby")
    b.wait_for_selector("body[data-ready='1']")

    # The host picks the game, two seats, no computers and 30 s a turn in the lobby.
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    name_myself(a, server, f"Vært {stamp}")
    a.goto(server + "/lobby")
    a.wait_for_selector("body[data-ready='1']")
    a.select_option("#quick-game", GAME)
    a.select_option("#quick-seats", "2")
    a.select_option("#quick-fill", "")
    turn = a.locator("#quick-turn")
    assert turn.locator("option").all_inner_texts() == [
        "ingen grænse", "30 sekunder", "1 minut", "2 minutter"]
    assert a.locator("label[for='quick-turn']").inner_text().startswith(
        "Betænkningstid pr. tur")
    turn.select_option("30")
    no_internal_words(a, "da", GAME)
    shot(a, "lobby-turn-timer-form-da-1366")
    a.click("#quick-play")
    a.wait_for_url("**/play/**", timeout=30000)
    wait_ready(a)
    match_id = a.url.split("/play/")[1].split("#")[0]
    assert api(server, f"/api/matches/{match_id}")["turn_seconds"] == 30

    # The phone sees the table with its timer, live, and takes the seat.
    card = b.locator(f"#tables li.table-card[data-match='{match_id}']")
    card.wait_for(timeout=10000)
    assert card.locator(".table-turn").inner_text() == "30 s per turn"
    assert card.locator(".table-turn").get_attribute("data-turn") == "30"
    no_internal_words(b, "en", GAME)
    shot(b, "lobby-turn-timer-en-390")
    card.locator("button.take").click()
    b.wait_for_url("**/play/**", timeout=30000)
    wait_ready(b)

    # The game runs: the seat to move counts down from 30 s, on both pages.
    for page, word in ((a, "tilbage"), (b, "left")):
        seconds = left_seconds(page)
        assert 15 <= seconds <= 30, seconds
        assert word in page.locator("#seats .turn-timer").first.inner_text()
    shot(a, "table-timer-from-lobby-da-1366")
    shot(b, "table-timer-from-lobby-en-390")
    no_internal_words(a, "da", GAME)
    no_internal_words(b, "en", GAME)
