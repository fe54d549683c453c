"""Hints on the statistics (issue 27): after three Posthuskabalen games — won with 3
hints, won without one, resigned after 1 hint — the statistics page's table of hints
says per solitaire the wins, the wins without hints, the hints in all, per game and per
won game, and charts the wins with and without hints; the list of games says "med 3
tip" / "uden tip".  A guest's list comes from the browser (localStorage) with the
server's statistics; after making an account, a fresh phone context signed in (English)
sees the same from the server."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .helpers import api, need_game, shot, state, version, wait_after, wait_ready
from .test_extras import DEAL, WIN, new_player

pytestmark = pytest.mark.browser
PASSWORD = "Syv tip er mange nok i en kabale"


def play(ctx: Any, server: str, player: str, hints: int, moves: list[str]) -> str:
    """A Posthuskabalen game of the deal: the moves, then "resign" unless they won it,
    with a press of "Tip" before each of the first ``hints`` (a hint asked again at the
    same position is answered again, not counted again).  Returns the match id."""
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    for n, action in enumerate([*moves, "resign"], 1):
        if state(page)["outcome"]:
            break
        if n <= hints:
            page.click("#hint")
            page.wait_for_function("n => (window.__spillebord.hints || 0) >= n && "
                                   "window.__spillebord.hint", arg=n, timeout=30000)
        v = version(page)
        page.evaluate("t => window.__spillebord.session.act(t)", action)
        wait_after(page, v, 30000)
    assert state(page)["outcome"]
    page.close()
    return str(res["match_id"])


def hint_row(page: Any) -> list[str]:
    row: list[str] = page.locator(".hints-table tr[data-hints='posthus'] td").all_inner_texts()
    return row


def entry(page: Any, match_id: str) -> str:
    text: str = page.locator(f"#history-body li[data-match='{match_id}']").inner_text()
    return text


def test_hints_on_the_statistics_page_and_in_the_games(contexts: Any, server: str) -> None:
    need_game("posthus")
    player = new_player(server)
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.player', '{player}');")
    helped = play(ctx, server, player, 3, WIN)
    alone = play(ctx, server, player, 0, WIN)
    gave_up = play(ctx, server, player, 1, WIN[:2])

    page = ctx.new_page()
    page.goto(server + "/stats")
    page.wait_for_selector("body[data-ready='1']")
    # wins, won without hints, hints in all, per game (4 / 3), per won game (3 / 2)
    assert hint_row(page) == ["2", "1", "4", "1,3", "1,5"], hint_row(page)
    assert page.locator(".hints-table caption").inner_text() == "Tip i kabalerne"
    assert page.locator(".hints-table tr[data-hints='gammel_jomfru']").count() == 0
    assert page.locator("svg.chart[aria-label='Sejre med og uden tip']").count() == 1
    shot(page, "statistics-hints-da-1366")

    # The guest's list of games (this browser's, as the server tells them) says the
    # result, the bonus and the hints of each.
    start = ctx.new_page()
    start.goto(server + "/")
    start.wait_for_selector("body[data-ready='1']")
    start.wait_for_selector(f"#history-body li[data-match='{helped}']")
    assert "— vundet · bonus 3 · med 3 tip" in entry(start, helped)
    assert "— vundet · bonus 3 · uden tip" in entry(start, alone)
    assert "— tabt · med 1 tip" in entry(start, gave_up)
    start.locator("#history").scroll_into_view_if_needed()
    shot(start, "start-games-hints-da-1366")

    # The guest becomes an account; a fresh phone signs in and sees the same, from the
    # server (any device).
    name = f"Tippe {int(time.time() * 1000) % 100000}"
    made = start.evaluate("""async ([player, name, password]) => {
        const r = await fetch('/api/account', {method: 'POST', headers: {
          'Content-Type': 'application/json', 'X-Player': player},
          body: JSON.stringify({name, password})});
        return r.status; }""", [player, name, PASSWORD])
    assert made == 201
    phone = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    b = phone.new_page()
    b.goto(server + "/stats")
    b.wait_for_selector("body[data-ready='1']")
    signed = b.evaluate("""async ([name, password]) => {
        const r = await fetch('/api/session', {method: 'POST', headers: {
          'Content-Type': 'application/json'}, body: JSON.stringify({name, password})});
        const me = await r.json();
        localStorage.setItem('spillebord.player', me.player_id);
        localStorage.setItem('spillebord.lang', 'en');
        return me.player_id; }""", [name, PASSWORD])
    assert signed == player
    b.goto(server + "/stats")
    b.wait_for_selector("body[data-ready='1']")
    assert hint_row(b) == ["2", "1", "4", "1.3", "1.5"], hint_row(b)
    assert b.locator(".hints-table caption").inner_text() == "Hints in the solitaires"
    assert b.evaluate("document.documentElement.scrollWidth") <= 390
    b.locator(".hints-table").scroll_into_view_if_needed()
    shot(b, "statistics-hints-en-390")
    b.goto(server + "/")
    b.wait_for_selector("body[data-ready='1']")
    history = b.locator("#history-body")
    history.locator(f"li[data-match='{helped}']").wait_for()
    assert history.get_attribute("data-source") == "server"
    assert " — won" in entry(b, helped) and " — lost" in entry(b, gave_up)
    assert "with 3 hints" in entry(b, helped)
    assert "without hints" in entry(b, alone)
    assert "with 1 hint" in entry(b, gave_up) and "with 1 hints" not in entry(b, gave_up)
    history.scroll_into_view_if_needed()
    shot(b, "start-games-hints-en-390")
