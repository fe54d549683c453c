"""The daily deal in Chromium (issue 15): two named players (Danish desktop, English
phone) play today's Posthuskabalen from the daily page — one wins by following the
hints, the other gives up — and the day's leaderboard orders them right; the second
visit offers to continue, not a second ranked attempt."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .helpers import api, name_myself, need_game, shot, wait_ready

pytestmark = pytest.mark.browser
GAME = "posthus"
# Ask the server for a hint, play it, until the game is over (the hints of a winnable
# deal walk one winning line).
HINTPLAY = """async () => {
  const g = window.__spillebord;
  const until = async (f) => {
    for (let i = 0; i < 600 && !f(); i++) await new Promise(r => setTimeout(r, 25));
  };
  for (let i = 0; i < 500 && !g.state.outcome; i++) {
    const n = g.hints || 0;
    g.session.hint();
    await until(() => (g.hints || 0) > n);
    if (!g.hint) return false;
    const v = g.session.version;
    g.session.act(g.hint);
    await until(() => g.session.version > v || g.state.outcome);
  }
  return Boolean(g.state.outcome && g.state.outcome.winners.length);
}"""


def open_daily(page: Any, server: str) -> Any:
    page.goto(server + "/daily")
    page.wait_for_selector("body[data-ready='1']")
    return page.locator(f"section.daily-card[data-game='{GAME}']")


def test_two_players_on_the_daily_posthus(contexts: Any, server: str) -> None:
    need_game(GAME)
    stamp = int(time.time() * 1000) % 100000
    a_name, b_name = f"Dag A {stamp}", f"Dag B {stamp}"
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    name_myself(a, server, a_name, "da")
    name_myself(b, server, b_name, "en")
    card = open_daily(a, server)
    deal = card.locator(".table-meta").first.inner_text()
    card.locator("button.daily-play").click()
    a.wait_for_url("**/play/**", timeout=60000)
    wait_ready(a)
    today = api(server, f"/api/daily/{GAME}")
    assert f"nr. {today['deal']}" in deal
    match_id = a.url.split("/play/")[1].split("#")[0]
    assert api(server, f"/api/matches/{match_id}")["deal"] == today["deal"]
    assert a.evaluate(HINTPLAY) is True
    # B gives up at once.
    card_b = open_daily(b, server)
    card_b.locator("button.daily-play").click()
    b.wait_for_url("**/play/**", timeout=60000)
    wait_ready(b)
    b.click("#resign")
    b.locator("dialog.choice-dialog button.primary").click()
    b.wait_for_function("() => window.__spillebord.state.outcome", timeout=15000)
    # The leaderboard: the winner first.
    card_b = open_daily(b, server)
    assert card_b.locator("button.daily-play").inner_text() == "Continue your attempt"
    rows = card_b.locator("table.daily-board tbody tr th").all_inner_texts()
    assert rows.index(a_name) < rows.index(b_name), rows
    shot(b, "daily-en-390")
    card = open_daily(a, server)
    assert "Dage i træk: 1" in card.inner_text()
    shot(a, "daily-da-1366")
