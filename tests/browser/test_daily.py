"""The daily deal in Chromium (issues 15 and 28): two signed-in accounts (Danish
desktop, English phone) play today's Posthuskabalen from the daily page — one wins by
playing a line the test's own solver found (the ranked attempt has no hint button and
its page says it is the daily deal), the other gives up — and the day's leaderboard
orders them right, says what it ranks by and shows the undos; the second visit offers
the finished attempt's replay, not to continue it and not a second ranked attempt."""

from __future__ import annotations

import time
from typing import Any

import pytest

from spillebord import games, solvers

from .helpers import api, need_game, shot, wait_ready
from .test_rated_game import sign_up

pytestmark = pytest.mark.browser
GAME = "posthus"
# Play the given line, one action after the other, until the game is over.
LINEPLAY = """async (line) => {
  const g = window.__spillebord;
  const until = async (f) => {
    for (let i = 0; i < 600 && !f(); i++) await new Promise(r => setTimeout(r, 25));
  };
  for (const action of line) {
    if (g.state.outcome) break;
    const v = g.session.version;
    g.session.act(action);
    await until(() => g.session.version > v || g.state.outcome);
  }
  return Boolean(g.state.outcome && g.state.outcome.winners.length);
}"""


def winning_line(deal: int) -> list[str]:
    """The bundled solver's hints from the start: one winning line of the deal."""
    solver = solvers.load(GAME)
    state = games.load(GAME).new(deal=deal)
    line = []
    while state.outcome is None and len(line) < 400:
        action = solver.hint(state, 2.0)
        assert action is not None
        line.append(str(action))
        state = state.apply(str(action))
    return line


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
    sign_up(a, server, a_name, "da")
    sign_up(b, server, b_name, "en")
    card = open_daily(a, server)
    deal = card.locator(".table-meta").first.inner_text()
    card.locator("button.daily-play").click()
    a.wait_for_url("**/play/**", timeout=60000)
    wait_ready(a)
    today = api(server, f"/api/daily/{GAME}")
    assert f"nr. {today['deal']}" in deal
    match_id = a.url.split("/play/")[1].split("#")[0]
    assert api(server, f"/api/matches/{match_id}")["deal"] == today["deal"]
    assert a.locator(".daily-ranked").inner_text().startswith("Dagens kabale")
    assert not a.locator("#hint").is_visible()
    assert a.evaluate(LINEPLAY, winning_line(today["deal"])) is True
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
    assert card_b.locator("button.daily-play").inner_text() == "See your attempt"
    assert "Ranked by bonus" in card_b.locator(".daily-ranks").inner_text()
    assert card_b.locator("table.daily-board thead").inner_text().split()[-1] == "Undos"
    rows = card_b.locator("table.daily-board tbody tr th").all_inner_texts()
    assert rows.index(a_name) < rows.index(b_name), rows
    shot(b, "daily-en-390")
    card = open_daily(a, server)
    assert "Dage i træk: 1" in card.inner_text()
    shot(a, "daily-da-1366")
