"""The daily deal in Chromium (issues 15 and 28), on a server of its own whose day the
test moves (``SPILLEBORD_DAY_OFFSET``, restarted on the same database): two signed-in
accounts (Danish desktop, English phone) play today's Posthuskabalen from the daily
page — one wins by playing a line the test's own solver found from the deal the test
reads in the database as the operator could (the ranked attempt has no hint button, no
verdict, and its page says it is the daily deal), the other gives up. Before the day is
over neither page shows the deal number, the other's line or its match; the daily page
shows the day's seal and the coming days'. The day's leaderboard orders them right,
says what it ranks by and shows the undos; the second visit offers the finished
attempt's replay. A day later the daily page reveals yesterday's deal, checks it against
the seal it saw, and the deal opens for practice with hints."""

from __future__ import annotations

import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from spillebord import games, solvers

from .conftest import start_server, stop_server
from .helpers import api, need_game, shot, wait_ready
from .test_rated_game import sign_up

pytestmark = pytest.mark.browser
GAME = "posthus"
DAY = "86400"
# As production: the coming days' deals are chosen at start (the other browser tests'
# servers leave that out)
AHEAD = {"SPILLEBORD_DAILY_AHEAD": "1"}
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


def stored_deal(db: Path, day: str) -> int:
    with sqlite3.connect(db) as conn:
        row = conn.execute("select deal from daily_deals where game = ? and day = ?",
                           (GAME, day)).fetchone()
    return int(row[0])


def open_daily(page: Any, server: str) -> Any:
    page.goto(server + "/daily")
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    return page.locator(f"section.daily-card[data-game='{GAME}']")


def test_two_players_on_the_daily_posthus(contexts: Any, tmp_path: Path) -> None:
    need_game(GAME)
    db = tmp_path / "daily.db"
    proc, server = start_server(db, tmp_path / "day.log", AHEAD)
    try:
        stamp = int(time.time() * 1000) % 100000
        a_name, b_name = f"Dag A {stamp}", f"Dag B {stamp}"
        a = contexts(viewport={"width": 1366, "height": 768}).new_page()
        watched_b = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
        watched_b.allowed.append("403")  # B tries A's replay before the day is over
        b = watched_b.new_page()
        sign_up(a, server, a_name, "da")
        sign_up(b, server, b_name, "en")
        for game in ("posthus", "studenter"):  # the solver's first use loads its kernels
            with urllib.request.urlopen(f"{server}/api/daily/{game}/commitments",
                                        timeout=300) as res:
                assert res.status == 200
        card = open_daily(a, server)
        today = api(server, f"/api/daily/{GAME}")
        day, deal = today["day"], stored_deal(db, today["day"])
        assert today["deal"] is None and str(deal) not in a.content()
        seal = card.locator(".daily-commitment").inner_text()
        assert seal == today["commitment"] and len(seal) == 64
        assert card.locator(".daily-seals li").count() == 7
        sealed = card.locator(".daily-sealed").inner_text()
        assert sealed == f"Kortene {day} vises, når dagen er slut."
        card.locator("button.daily-play").click()
        a.wait_for_url("**/play/**", timeout=60000)
        wait_ready(a)
        match_id = a.url.split("/play/")[1].split("#")[0]
        assert api(server, f"/api/matches/{match_id}")["deal"] is None
        assert a.locator(".daily-ranked").inner_text().startswith("Dagens kabale")
        assert not a.locator("#hint").is_visible()
        assert a.evaluate(LINEPLAY, winning_line(deal)) is True
        assert a.locator("#verdict").inner_text() == ""
        assert str(deal) not in a.content() and "share-deal" not in a.url
        assert not a.locator("#share-deal").is_visible()
        # B gives up at once.
        card_b = open_daily(b, server)
        card_b.locator("button.daily-play").click()
        b.wait_for_url("**/play/**", timeout=60000)
        wait_ready(b)
        assert not b.locator("#hint").is_visible()
        b.click("#resign")
        b.locator("dialog.choice-dialog button.primary").click()
        b.wait_for_function("() => window.__spillebord.state.outcome", timeout=15000)
        # The leaderboard: the winner first, nobody's line open yet.
        card_b = open_daily(b, server)
        assert card_b.locator("button.daily-play").inner_text() == "See your attempt"
        assert "Ranked by bonus" in card_b.locator(".daily-ranks").inner_text()
        assert card_b.locator("table.daily-board thead").inner_text().split()[-1] == "Undos"
        rows = card_b.locator("table.daily-board tbody tr th").all_inner_texts()
        assert rows.index(a_name) < rows.index(b_name), rows
        assert card_b.locator("table.daily-board a").count() == 0
        assert match_id not in b.content() and str(deal) not in b.content()
        b.goto(f"{server}/replay/{match_id}")  # A's line, if B guessed its id: closed
        b.wait_for_timeout(1500)
        assert str(deal) not in b.content()
        assert b.locator("#actions li").count() == 0
        open_daily(b, server)
        shot(b, "daily-en-390")
        card = open_daily(a, server)
        assert "Dage i træk: 1" in card.inner_text()
        shot(a, "daily-da-1366")
    finally:
        stop_server(proc)

    # A day later: the same database, the clock moved on by a day.
    # The same port: the same origin, so the pages keep what they remembered (the seals).
    port = int(server.rsplit(":", 1)[1])
    proc, server = start_server(db, tmp_path / "next.log",
                                {**AHEAD, "SPILLEBORD_DAY_OFFSET": DAY}, port)
    try:
        for page, check, lang in ((a, "Efterprøvet", "da-1366"), (b, "Checked", "en-390")):
            card = open_daily(page, server)
            card.locator("select.daily-day").select_option(day)
            verdict = card.locator(".daily-check")
            verdict.wait_for(timeout=30000)
            assert verdict.get_attribute("data-check") == "verified"
            seen = page.evaluate("() => JSON.parse(localStorage.getItem('spillebord.daily.seals'))")
            assert seen[f"{GAME} {day}"] == seal  # checked against the seal seen the day before
            assert verdict.inner_text().startswith(check)
            assert str(deal) in card.inner_text()
            # A's line opens now.
            assert card.locator("table.daily-board a").count() >= 1
            shot(page, f"daily-reveal-{lang}")
        card = open_daily(a, server)
        card.locator("select.daily-day").select_option(day)
        practice = card.locator("a.daily-practice")
        practice.wait_for(timeout=30000)
        assert practice.get_attribute("href") == f"/?game={GAME}&deal={deal}"
        practice.click()
        a.wait_for_selector("body[data-ready='1']")
        form = a.locator(f"form[data-game='{GAME}']")
        assert form.locator("input[name='deal-number']").input_value() == str(deal)
        form.locator("button[type='submit']").click()
        a.wait_for_url("**/play/**", timeout=30000)
        wait_ready(a)
        assert a.locator("#hint").is_visible()  # practice: an ordinary game, with hints
    finally:
        stop_server(proc)
