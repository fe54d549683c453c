"""No element id repeats on any page, in Chromium: the start page (a guest without a name,
a named guest with every fold open, a signed-in player), each game while it is played and
with its rules open, a won solitaire, a replay, the statistics, lobby, leaderboard, daily
and invite pages and an unknown address.  A label clicked focuses its own box."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from .helpers import api, name_myself, need_game, wait_my_turn, wait_ready
from .test_axe import DEALS, TABLES
from .test_extras import DEAL, WIN, _act, new_player

pytestmark = pytest.mark.browser


def duplicates(page: Any) -> dict[str, int]:
    found: dict[str, int] = page.evaluate("""() => {
        const n = {};
        for (const e of document.querySelectorAll('[id]')) n[e.id] = (n[e.id] || 0) + 1;
        return Object.fromEntries(Object.entries(n).filter(([, c]) => c > 1));
    }""")
    return found


def _open_folds(page: Any) -> None:
    for summary in page.locator("summary").all():
        if summary.is_visible() and not summary.evaluate("s => s.parentElement.open"):
            summary.click()


def test_no_id_repeats_on_any_page(contexts: Any, server: str) -> None:
    found: dict[str, dict[str, int]] = {}

    def check(what: str) -> None:
        dup = duplicates(page)
        if dup:
            found[what] = dup

    player = new_player(server)
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.player', '{player}');")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    _open_folds(page)
    check("start, a guest without a name")
    name_myself(page, server, "Id" + uuid.uuid4().hex[:6])
    _open_folds(page)
    check("start, a named guest, every fold open")
    for game, seats in TABLES.items():
        need_game(game)
        body: dict[str, Any] = {"game": game, "seats": seats, "player": player}
        if game in DEALS:
            body["deal"] = DEALS[game]
        res = api(server, "/api/matches", body)
        page.goto(server + res["play_url"])
        wait_ready(page)
        wait_my_turn(page)
        check(f"{game} playing")
        page.click("#rules")
        page.wait_for_selector(".rules-body p")
        check(f"{game} rules")
        page.keyboard.press("Escape")
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    page.goto(server + res["play_url"])
    wait_ready(page)
    for move in WIN:
        _act(page, move)
    page.wait_for_function("() => !document.querySelector('#best').hidden")
    check("posthus won")
    page.goto(server + f"/replay/{res['match_id']}")
    page.wait_for_selector("body[data-ready='1']")
    check("replay")
    for path in ("/stats", "/lobby", "/leaderboard", "/daily", "/"):
        page.goto(server + path)
        page.wait_for_selector("body[data-ready='1']")
        _open_folds(page)
        check(path)
    ctx.allowed.append("404 (Not Found)")
    page.goto(server + "/join/no-such-invite")
    page.wait_for_selector("#after:not([hidden])")
    check("join, an unknown invite")
    page.goto(server + "/no/such/page")
    check("an unknown address")
    # Signed in: make an account, then look again.
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#account summary:has-text('Opret konto')")
    page.locator("#account .sign-up-form input[name='password']").fill("et langt kodeord 42")
    page.locator("#account .sign-up-form button[type='submit']").click()
    page.wait_for_function("() => document.querySelector('#account').dataset.account === '1'")
    _open_folds(page)
    check("start, signed in, every fold open")
    assert not found, found


def test_a_label_focuses_its_own_box(contexts: Any, server: str) -> None:
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    name_myself(page, server, "Lbl" + uuid.uuid4().hex[:6])
    page.click("#account summary:has-text('Log ind')")
    sign_in = page.locator("#account .sign-in-form")
    for label in ("Navn", "Kodeord"):
        sign_in.locator(f"label:has-text('{label}') span").click()
        assert page.evaluate("() => document.activeElement.closest('.sign-in-form') !== null"), \
            f"clicking '{label}' in Log ind focused a box outside that form"
    page.click("#account summary:has-text('Opret konto')")
    page.locator("#account .sign-up-form label span").first.click()
    assert page.evaluate("() => document.activeElement.closest('.sign-up-form') !== null")
