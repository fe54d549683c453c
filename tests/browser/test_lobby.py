"""The lobby in Chromium with three browser contexts (issue 15): a named player opens a
public Gammel Jomfru table from the start page; a phone already in the lobby sees it
appear live with the host's name and takes a seat with one click; a third player sees
the free seats go down live and gets the last seat through "Hurtigt spil"; the full
table leaves the lobby."""

from __future__ import annotations

import time
from typing import Any

import pytest

from .helpers import name_myself, need_game, shot, state, wait_ready

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"


def lobby_card(page: Any, match_id: str) -> Any:
    return page.locator(f"#tables li.table-card[data-match='{match_id}']")


def test_find_each_other_in_the_lobby(contexts: Any, server: str) -> None:
    need_game(GAME)
    stamp = int(time.time() * 1000) % 100000
    host_name, phone_name, third_name = f"Vært {stamp}", f"Mobil {stamp}", f"Tredje {stamp}"

    # The phone (English) waits in the lobby first.
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    b.goto(server + "/")
    b.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    name_myself(b, server, phone_name)
    b.goto(server + "/lobby")
    b.wait_for_selector("body[data-ready='1']")

    # The host opens a public table for three from the start page (Danish).
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    name_myself(a, server, host_name)
    a.click(f"#game-{GAME} summary")
    form = a.locator(f"form[data-game='{GAME}']")
    form.locator("select[name='seats']").select_option("3")
    form.locator("select[name='kind-1']").select_option("human")
    form.locator("select[name='kind-2']").select_option("human")
    form.locator(f"#{GAME}-public").check()
    # A 2-minute turn timer, which no other test's table has: quick match below may
    # only find this table (it seats a player at the oldest table that fits, and the
    # browser tier's server keeps other tests' tables, in random order).
    form.locator("select[name='turn']").select_option("120")
    form.locator("button[type='submit']").click()
    a.wait_for_url("**/play/**", timeout=30000)
    wait_ready(a)
    match_id = a.url.split("/play/")[1].split("#")[0]

    # It appears on the phone without a reload, with the host's name.
    card = lobby_card(b, match_id)
    card.wait_for(timeout=30000)
    assert host_name in card.inner_text()
    assert "1 of 3 seats" not in card.inner_text() and "2 of 3 seats free" in card.inner_text()
    shot(b, "lobby-en-390")

    # A third player (Danish desktop) watches the lobby.
    c = contexts(viewport={"width": 1366, "height": 768}).new_page()
    name_myself(c, server, third_name)
    c.goto(server + "/lobby")
    c.wait_for_selector("body[data-ready='1']")
    lobby_card(c, match_id).wait_for()
    assert "2 af 3 pladser ledige" in lobby_card(c, match_id).inner_text()
    shot(c, "lobby-da-1366")

    # One click takes seat 2 on the phone: its game page opens seated.
    card.locator("button.take[data-seat='1']").click()
    b.wait_for_url("**/play/**", timeout=30000)
    wait_ready(b)
    assert state(b)["seat"] == 1
    # The third player sees it live, then takes the last seat through "Hurtigt spil".
    c.wait_for_function(
        "m => { const el = document.querySelector(`li.table-card[data-match='${m}']`); "
        "return el && el.textContent.includes('1 af 3 pladser ledige'); }", arg=match_id)
    assert phone_name in lobby_card(c, match_id).inner_text()
    c.select_option("#quick-game", GAME)
    c.select_option("#quick-seats", "3")
    c.select_option("#quick-turn", "120")
    c.click("#quick-play")
    c.wait_for_url(f"**/play/{match_id}", timeout=30000)
    wait_ready(c)
    assert state(c)["seat"] == 2

    # The full table has left the lobby.
    again = contexts(viewport={"width": 1000, "height": 800}).new_page()
    again.goto(server + "/lobby")
    again.wait_for_selector("body[data-ready='1']")
    assert lobby_card(again, match_id).count() == 0
