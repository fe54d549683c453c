"""The whole table story in Chromium (issue 15): two players sign up (Danish desktop,
English phone), find each other in the lobby, chat, play Gammel Jomfru to the end and
see their ratings change on both screens; the leaderboard orders them."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .helpers import name_myself, need_game, shot, state, wait_ready
from .test_chat import AUTOPLAY, wait_line

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"
PASSWORD = "Tårnet har 7 blå vinduer"


def sign_up(page: Any, server: str, name: str, lang: str) -> None:
    name_myself(page, server, name, lang)
    page.locator("#account details.account-more summary").nth(1).click()
    fold = page.locator("#account form.sign-up-form")
    fold.locator("input[name='password']").fill(PASSWORD)
    fold.locator("button[type='submit']").click()
    page.wait_for_function("() => document.querySelector('#account').dataset.account === '1'")


def test_two_named_players_play_a_rated_game(contexts: Any, server: str) -> None:
    need_game(GAME)
    stamp = int(time.time() * 1000) % 100000
    a_name, b_name = f"Rangeret A {stamp}", f"Rangeret B {stamp}"
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    sign_up(a, server, a_name, "da")
    sign_up(b, server, b_name, "en")
    # A opens a public table for two; B finds it in the lobby and sits down.
    a.click(f"#game-{GAME} summary")
    form = a.locator(f"form[data-game='{GAME}']")
    form.locator("select[name='seats']").select_option("2")
    form.locator("select[name='kind-1']").select_option("human")
    form.locator(f"#{GAME}-public").check()
    form.locator("button[type='submit']").click()
    a.wait_for_url("**/play/**", timeout=30000)
    wait_ready(a)
    match_id = a.url.split("/play/")[1].split("#")[0]
    b.goto(server + "/lobby")
    card = b.locator(f"li.table-card[data-match='{match_id}']")
    card.wait_for(timeout=10000)
    assert a_name in card.inner_text()
    # Before anyone sits down the table says whether it counts (issue 28).
    assert card.locator(".table-rated").inner_text() == (
        "This game counts for the ratings if everyone who sits down is signed in.")
    card.locator("button.take").click()
    b.wait_for_url("**/play/**", timeout=30000)
    wait_ready(b)
    # Each sees the other's name in the seat list.
    b.wait_for_function("n => document.querySelector('#seats').textContent.includes(n)",
                        arg=a_name, timeout=10000)
    a.wait_for_function("n => document.querySelector('#seats').textContent.includes(n)",
                        arg=b_name, timeout=10000)
    # The table says it is rated, and that leaving loses.
    a.wait_for_selector("#rated[data-rated='yes']", timeout=10000)
    assert a.locator("#rated").inner_text() == (
        "Spillet tæller på ranglisten. Forlader du bordet, eller spiller computeren for "
        "dig, tæller spillet som tabt for dig.")
    assert b.locator("#rated").inner_text().startswith("This game counts for the ratings.")
    # They chat.
    a.fill("#chat-text", "Hej og velkommen!")
    a.locator("#chat form.chat-form button[type='submit']").click()
    wait_line(b, "Hej og velkommen!")
    b.click("#chat button.chat-phrase[data-phrase='good_luck']")
    wait_line(a, "Held og lykke!")
    # They play to the end; both screens show the rating change.
    for page in (a, b):
        page.evaluate(AUTOPLAY)
    a.wait_for_function("() => window.__spillebord.state.outcome", timeout=120000)
    outcome = state(a)["outcome"]
    a.wait_for_selector("#rating:not([hidden])", timeout=20000)
    b.wait_for_selector("#rating:not([hidden])", timeout=20000)
    # The table's rated line follows the rater's final answer without a reload (issue
    # 28; before, it kept saying "counts … if you leave" until the page was reloaded).
    for page, text in ((a, "Spillet talte på ranglisten."),
                       (b, "This game counted for the ratings.")):
        page.wait_for_function("t => document.querySelector('#rated').textContent === t",
                               arg=text, timeout=20000)
    da, en = a.locator("#rating").inner_text(), b.locator("#rating").inner_text()
    ma = re.fullmatch(r"Din rating: 1000 → (\d+)", da)
    mb = re.fullmatch(r"Your rating: 1000 → (\d+)", en)
    assert ma and mb, (da, en)
    ra, rb = int(ma.group(1)), int(mb.group(1))
    if outcome["winners"] == [0]:
        assert ra > rb
    elif outcome["winners"] == [1]:
        assert rb > ra
    # After a reload the seat list shows the other's new rating beside the name.
    b.reload()
    wait_ready(b)
    b.wait_for_function("t => document.querySelector('#seats').textContent.includes(t)",
                        arg=f"{a_name} ({ra})", timeout=10000)
    shot(a, "rated-game-da-1366")
    shot(b, "rated-game-en-390")
    # One game: both ratings are provisional (issue 28), so the leaderboard lists
    # neither; each sees their own row, marked and unranked.
    a.goto(server + f"/leaderboard?game={GAME}&seats=2")
    a.wait_for_selector("body[data-ready='1']")
    rows = a.locator("#board tbody tr th").all_inner_texts()
    assert f"{a_name} (foreløbig)" in rows and b_name not in " ".join(rows)
    assert a.locator("#board tbody tr.provisional td").first.inner_text() == "–"
    assert a.locator("#mine").is_visible()
    assert f"{ra}" in a.locator("#mine-now").inner_text()
    assert "foreløbig" in a.locator("#mine-now").inner_text()
    shot(a, "leaderboard-da-1366")
