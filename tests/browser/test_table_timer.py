"""The table's turn timer and giving up a seat, in Chromium (issue 27, section 2): the
creator picks a turn timer on the start page; the seat to move shows the server's
countdown; when it runs out a bot of the table's level plays that turn and the seat says
so; "Opgiv og forlad bordet" hands the seat to a bot for good and the page watches on.
Danish 1366×768 and English 390×844."""

from __future__ import annotations

from typing import Any

import pytest

from spillebord import bots

from .helpers import api, need_game, shot, state, version, wait_after, wait_my_turn, wait_ready
from .test_newcomer import SCREEN_TEXT, raw_names

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAME = "kugler"

# Every text the seat list ever showed (the timer's bot marker lasts a moment).
RECORD = """
window.__seatTexts = [];
new MutationObserver(() => { const s = document.getElementById('seats');
  if (s && s.textContent && s.textContent !== window.__seatTexts.at(-1))
    window.__seatTexts.push(s.textContent); })
  .observe(document, { subtree: true, childList: true, characterData: true });
"""
WORDS = {"da": {"left": "tilbage", "timer": "tiden løb ud – computeren spiller",
                "gave_up": "gav op – computeren spiller", "leave": "Opgiv og forlad bordet",
                "turn": "Betænkningstid pr. tur", "sec30": "30 sekunder"},
         "en": {"left": "left", "timer": "time ran out – computer playing",
                "gave_up": "resigned – computer playing", "leave": "Resign and leave the table",
                "turn": "Time per turn", "sec30": "30 seconds"}}


def no_internal_words(page: Any, lang: str, game: str) -> None:
    """The screen holds no bot key, catalogue key or field code (as the newcomer hour)."""
    keys = set(bots.levels(game) and [lv.bot for lv in bots.levels(game).values()])
    assert raw_names(page.evaluate(SCREEN_TEXT), lang, keys, game == "kugler") == []


def table_page(contexts: Any, server: str, lang: str, width: int, height: int) -> Any:
    ctx = contexts(viewport={"width": width, "height": height}, has_touch=width < 500)
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    ctx.context.add_init_script(RECORD)
    return ctx.new_page()


@pytest.mark.parametrize(("lang", "width", "height"), [("da", 1366, 768), ("en", 390, 844)],
                         ids=["da-1366", "en-390"])
def test_turn_timer_runs_out_then_the_player_gives_up(
        contexts: Any, server: str, lang: str, width: int, height: int) -> None:
    need_game(GAME)
    words = WORDS[lang]
    seats: list[Any] = ["me", *[{"level": 1}] * 3]
    made = api(server, "/api/matches", {"game": GAME, "seats": seats, "turn_seconds": 10})
    page = table_page(contexts, server, lang, width, height)
    page.goto(server + made["play_url"])
    wait_ready(page)
    wait_my_turn(page)
    # The countdown is on my seat (the server's numbers, counted down by the page).
    timer = page.locator("#seats li[data-seat='0'] .turn-timer")
    timer.wait_for(timeout=30000)
    assert words["left"] in timer.inner_text()
    assert timer.inner_text().startswith(("0:10", "0:0"))
    shot(page, f"table-turn-timer-{lang}")
    no_internal_words(page, lang, GAME)
    v = version(page)
    mine = [e for e in page.evaluate("() => window.__spillebord.log") if e["seat"] == 0]
    # I do nothing: the timer runs out and a bot plays my turn; the seat says so.
    wait_after(page, v, timeout=20000)
    page.wait_for_function(
        "n => window.__spillebord.log.filter(e => e.seat === 0).length > n", arg=len(mine),
        timeout=20000)
    played = [e for e in page.evaluate("() => window.__spillebord.log") if e["seat"] == 0]
    assert played[len(mine)].get("by") == "bot"
    assert any(words["timer"] in text for text in page.evaluate("() => window.__seatTexts"))
    # Giving up: confirm, the seat goes to a bot for good, the page watches.
    wait_my_turn(page)
    page.locator("#leave").click()
    page.locator("dialog.choice-dialog button", has_text=words["leave"]).click()
    page.wait_for_function("() => !document.getElementById('role').hidden")
    seat0 = page.locator("#seats li[data-seat='0']")
    seat0.locator(".bot-pill", has_text=words["gave_up"]).wait_for(timeout=10000)
    assert page.locator("#leave").is_hidden()
    assert page.evaluate(f"() => localStorage.getItem('spillebord.token.{made['match_id']}')") \
        is None
    v = version(page)
    wait_after(page, v, timeout=20000)
    assert state(page)["seat"] is None and state(page)["legal"] == []
    shot(page, f"table-gave-up-{lang}")
    no_internal_words(page, lang, GAME)
    info = api(server, f"/api/matches/{made['match_id']}")
    assert info["seats"][0]["left"] and info["seats"][0]["bot_reason"] == "left"


def test_the_creator_picks_the_turn_timer(contexts: Any, server: str) -> None:
    need_game(GAME)
    page = table_page(contexts, server, "da", 1366, 768)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click(f"#game-{GAME} summary")
    form = page.locator(f"form[data-game='{GAME}']")
    assert WORDS["da"]["turn"] in form.inner_text()
    for i in range(1, 4):
        form.locator(f"select[name='kind-{i}']").select_option("bot")
    form.locator("select[name='turn']").select_option(label=WORDS["da"]["sec30"])
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)
    match_id = page.url.split("/play/")[1].split("#")[0]
    assert api(server, f"/api/matches/{match_id}")["turn_seconds"] == 30
    wait_my_turn(page)
    timer = page.locator("#seats li[data-seat='0'] .turn-timer")
    timer.wait_for(timeout=30000)
    assert timer.inner_text().startswith(("0:30", "0:2"))


def test_play_again_moves_the_seat_to_a_new_table(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    made = api(server, "/api/matches", {"game": "gammel_jomfru",
                                        "seats": ["me", {"bot": "random"}]})
    page = table_page(contexts, server, "da", 1366, 768)
    page.goto(server + made["play_url"])
    wait_ready(page)
    assert page.locator("#rematch").is_hidden()  # only at the end
    # Play to the end quickly (the page's own session sends each move).
    for _ in range(400):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["outcome"] is not None:
            break
        v = version(page)
        page.evaluate("a => window.__spillebord.session.act(a)", st["legal"][0])
        wait_after(page, v, timeout=30000)
    assert state(page)["outcome"] is not None
    button = page.locator("#rematch")
    button.wait_for(state="visible", timeout=10000)
    assert button.inner_text() == "Spil igen"
    shot(page, "table-play-again-da")
    no_internal_words(page, "da", "gammel_jomfru")
    button.click()
    page.wait_for_url(lambda url: made["match_id"] not in url and "/play/" in url,
                      timeout=30000)
    wait_ready(page)
    new_id = page.url.split("/play/")[1].split("#")[0]
    assert state(page)["seat"] == 0
    info = api(server, f"/api/matches/{new_id}")
    assert info["status"] == "running" and info["seats"][1]["bot"] == "random"
    assert info["fair"]["commitment"] != api(
        server, f"/api/matches/{made['match_id']}")["fair"]["commitment"]
