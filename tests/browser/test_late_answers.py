"""Answers that come out of order (the race class CI kept finding: an older question's
answer came last and drew over the newer one's).  Each test holds the older question's
real answer (read from the server when it was asked) with Playwright's ``page.route``,
lets the newer one draw, then gives the page the older: the page must keep what the
newer answer drew.  Pages: the replay (steps taken
faster than their boards come), the daily page (a day chosen, then another) and the
game page (the seated players and the rated line, asked again on every ``seats``
message; a solitaire's best result, asked when the page opens and when the game ends; the fair-deal
box, whose question at the end fails after a reconnect has revealed the deal; the
leaderboard, where an older seat choice's computer ladder fails after the newer drew)."""

from __future__ import annotations

import sqlite3
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from .conftest import start_server, stop_server
from .helpers import api, need_game, open_room, state, wait_ready
from .test_extras import DEAL, WIN, _act, new_player
from .test_fair import play_out
from .test_rated_game import sign_up
from .test_replay_controls import _replay
from .test_seat_names import call, named_player

pytestmark = pytest.mark.browser


def hold_first(page: Any, pattern: str, ask: bool = True) -> list[Any]:
    """The first request matching ``pattern`` is asked of the server at once, and its
    answer (the server's, as of then) held back from the page: its route and answer land
    in the list, for ``release``.  ``ask=False``: the request is only held (to be
    aborted, a request that fails late).  Later requests go through."""
    held: list[Any] = []
    seen = [0]

    def route(r: Any) -> None:
        seen[0] += 1
        if seen[0] == 1:
            held.append((r, r.fetch() if ask else None))
        else:
            r.continue_()

    page.route(pattern, route)
    return held


def wait_held(page: Any, held: list[Any]) -> None:
    deadline = time.monotonic() + 15
    while not held:
        assert time.monotonic() < deadline, "the request to hold never came"
        page.wait_for_timeout(20)


def release(page: Any, held: list[Any], pattern: str) -> None:
    """Give the page the held answer now, and it time to (wrongly) draw it."""
    route, answer = held[0]
    with page.expect_response(pattern):
        route.fulfill(response=answer)
    page.wait_for_timeout(400)


def test_replay_an_older_steps_board_comes_last_and_draws_nothing(
        contexts: Any, server: str) -> None:
    need_game("posthus")
    page = _replay(contexts, server)  # 30 moves; the page shows step 30
    thirty = page.inner_html("#board")
    held = hold_first(page, "**/replay?step=3")
    page.locator("#actions li[data-step='3'] button").click()
    wait_held(page, held)
    page.locator("#actions li[data-step='5'] button").click()
    # (step 3's board is held: the first board drawn now is step 5's)
    page.wait_for_function("b => document.querySelector('#board').innerHTML !== b", arg=thirty)
    five = page.inner_html("#board")
    release(page, held, "**/replay?step=3")  # before the fix: step 3's board under "5"
    assert "5" in page.inner_text("#step")
    assert page.inner_html("#board") == five, "an older step's board drew over step 5"
    page.locator("#actions li[data-step='3'] button").click()  # (the boards differ)
    page.wait_for_function("b => document.querySelector('#board').innerHTML !== b", arg=five)


@pytest.mark.slow  # its own server and the solver (> 5 s)
def test_daily_an_older_days_leaderboard_comes_last_and_draws_nothing(
        contexts: Any, tmp_path: Path) -> None:
    need_game("posthus")
    db = tmp_path / "late.db"
    proc, server = start_server(db, tmp_path / "late.log")
    try:
        today = api(server, "/api/daily/posthus")["day"]  # chosen now (the solver)
        yesterday = (date.fromisoformat(today) - timedelta(days=1)).isoformat()
        with sqlite3.connect(db) as conn:  # a day before: revealed, with a practice link
            conn.execute("insert into daily_deals (game, day, start, deal, created, salt) "
                         "select game, ?, start, deal, created, salt from daily_deals "
                         "where game = 'posthus' and day = ?", (yesterday, today))
        page = contexts(viewport={"width": 1366, "height": 768}).new_page()
        page.add_init_script("localStorage.setItem('spillebord.lang', 'da');")
        page.goto(server + "/daily")
        page.wait_for_selector("body[data-ready='1']", timeout=120000)
        card = page.locator("section.daily-card[data-game='posthus']")
        box = card.locator(".daily-board-box")
        assert box.locator(".daily-sealed").count() == 1  # today's, sealed
        old = f"**/api/daily/posthus/leaderboard?day={yesterday}"
        held = hold_first(page, old)
        days = card.locator("select.daily-day")
        days.select_option(yesterday)
        wait_held(page, held)
        with page.expect_response(f"**/api/daily/posthus/leaderboard?day={today}"):
            days.select_option(today)
        page.wait_for_function("b => b.querySelector('.daily-board')",
                               arg=box.element_handle())
        drawn = box.inner_html()
        release(page, held, old)  # before the fix: yesterday's board drawn under today's
        assert box.locator("table.daily-board").count() == 1
        assert box.locator(".daily-practice").count() == 0, "yesterday's deal was drawn"
        assert box.inner_html() == drawn
    finally:
        stop_server(proc)


def test_table_an_older_seat_read_comes_last_and_draws_nothing(
        contexts: Any, server: str) -> None:
    """A friend takes the free seat: the ``seats`` message asks again who sits where and
    whether the game is rated; the answers to the questions asked when the page opened
    (the seat free, rated while it is) come last and must not take the friend's name
    away or say the game is rated again."""
    need_game("gammel_jomfru")
    stamp = int(time.time() * 1000) % 100000
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    sign_up(page, server, f"Vært {stamp}", "da")  # an account: a free seat may be rated
    people = hold_first(page, "**/api/matches/*/players")
    rated = hold_first(page, "**/api/matches/*/rated")
    open_room(page, server, "gammel_jomfru", ["me", "human"])
    wait_held(page, people)
    wait_held(page, rated)
    match_id = page.url.split("/play/")[1].split("#")[0]
    code = page.evaluate("m => JSON.parse(localStorage.getItem(`spillebord.invites.${m}`))[0].code",
                         match_id)
    friend = f"Ven {stamp}"
    call(server, "POST", f"/api/invites/{code}/claim", {"player": named_player(server, friend)})
    page.wait_for_function("n => document.getElementById('seats').textContent.includes(n)",
                           arg=friend)
    page.wait_for_function("() => document.getElementById('rated').dataset.rated === 'guests'")
    release(page, people, "**/api/matches/*/players")  # before the fix: the seat unnamed
    release(page, rated, "**/api/matches/*/rated")  # and "tæller" again
    assert friend in page.inner_text("#seats"), "an older read took the friend's name away"
    assert page.get_attribute("#rated", "data-rated") == "guests", "an older read said rated"


def test_solitaire_the_opening_best_result_comes_last_and_draws_nothing(
        contexts: Any, server: str) -> None:
    """The best result on the deal is asked when the page opens and again when the game
    is won; the opening answer (nothing finished yet) comes last: the panel keeps the
    win."""
    need_game("posthus")
    player = new_player(server)
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.player', '{player}');"
                                "localStorage.setItem('spillebord.lang', 'da');")
    page = ctx.new_page()
    pattern = f"**/api/players/{player}/best?*"
    held = hold_first(page, pattern)
    page.goto(server + res["play_url"])
    wait_ready(page)
    wait_held(page, held)
    for move in WIN:
        _act(page, move)
    assert state(page)["outcome"]["reason"] == "won"
    page.wait_for_function("() => document.querySelector('#best').innerText.includes('Vundet')")
    release(page, held, pattern)  # before the fix: "not finished before" again
    assert "Vundet" in page.inner_text("#best"), "the opening answer put back the old result"


@pytest.mark.slow  # a table game played to its end (> 5 s)
def test_fair_a_late_failed_ask_never_seals_a_revealed_deal(
        contexts: Any, server: str) -> None:
    """At the end the fair-deal box asks for the reveal; the network goes, the socket
    comes back and its welcome brings the revealed deal (checked); then the first ask
    fails: the box keeps the checked deal, not the seal."""
    need_game("gammel_jomfru")
    made = api(server, "/api/matches", {"game": "gammel_jomfru", "seats": ["me", "human"]})
    claimed = api(server, f"/api/invites/{made['invites'][0]['code']}/claim", {"x": 1})
    watched = contexts(viewport={"width": 1366, "height": 768})
    watched.allowed.append("net::ERR_FAILED")  # the ask that fails (aborted below)
    page = watched.new_page()
    page.goto(f"{server}/play/{made['match_id']}")
    wait_ready(page)
    box = page.locator("#fair")
    box.locator("[data-check='sealed']").wait_for()
    pattern = f"**/api/matches/{made['match_id']}"
    held = hold_first(page, pattern, ask=False)
    play_out(server, made["match_id"], [made["token"], claimed["token"]]).join(120)
    wait_held(page, held)  # the end's ask, held
    page.evaluate("() => { const s = window.__spillebord.session; s.abandon(s.ws); }")
    box.locator("[data-check='verified']").wait_for(timeout=30000)  # from the welcome
    held[0][0].abort()  # the first ask fails now: before the fix the seal came back
    page.wait_for_timeout(400)
    assert box.locator("[data-check='verified']").count() == 1
    assert box.locator("[data-check='sealed']").count() == 0, "a revealed deal was sealed again"


def test_leaderboard_an_older_choices_failed_ladder_says_nothing(
        contexts: Any, server: str) -> None:
    """The computer ladder of an older seat choice fails after the newer choice drew
    its own: no error message about a choice no longer on screen."""
    need_game("gammel_jomfru")
    watched = contexts(viewport={"width": 1366, "height": 768})
    watched.allowed.append("net::ERR_FAILED")  # the ladder that fails (aborted below)
    page = watched.new_page()
    page.add_init_script("localStorage.setItem('spillebord.lang', 'da');")
    page.goto(f"{server}/leaderboard?game=gammel_jomfru")
    page.wait_for_selector("body.leaderboard-page[data-ready='1']")
    held = hold_first(page, "**/api/bot-ladder/gammel_jomfru?seats=5", ask=False)
    page.select_option("#board-seats", "5")
    wait_held(page, held)
    page.select_option("#board-seats", "3")
    page.wait_for_function("() => document.querySelector('#bots-title')"
                           ".textContent.includes('3 spillere')")
    held[0][0].abort()  # before the fix: an error message for the 5 seats' ladder
    page.wait_for_timeout(400)
    assert page.locator("#messages").is_hidden(), page.inner_text("#messages")
    assert "3 spillere" in page.inner_text("#bots-title")



def test_a_new_guest_is_made_once_for_two_questions_at_once(
        contexts: Any, server: str) -> None:
    """A fresh browser in the lobby: "Hurtigt spil" and a "Tag plads" clicked within one
    round trip both ask the page's guest id (``ensurePlayer``) before the browser has
    one.  They share the one request: one guest is made, and both go on as it.  Failed
    before: two guests were made, and whichever answer came last was kept — a game
    started as the other lost its player's statistics."""
    ctx = contexts(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url)
            if r.method == "POST" and r.url.endswith("/api/players") else None)
    page.goto(server + "/lobby")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("() => localStorage.getItem('spillebord.player')") is None
    got = page.evaluate("""async () => {
        const api = await import("/static/js/api.js");
        return Promise.all([api.ensurePlayer(), api.ensurePlayer()]); }""")
    kept = page.evaluate("() => localStorage.getItem('spillebord.player')")
    assert len(posts) == 1, f"{len(posts)} guests made for one browser"
    assert got == [kept, kept]
    # asked again once the id is kept: no request at all
    assert page.evaluate("""async () => (await import("/static/js/api.js")).ensurePlayer()"""
                         ) == kept
    assert len(posts) == 1
