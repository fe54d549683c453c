"""The start page's one-click "Spil" (issue 27, section 4: "each game has a visible
'Spil' button"): every game card shows it without being opened, and it starts the game
with the card's form as it stands — a random deal of a solitaire; a table game with you
against computers at the game's default level.  Opened, the card shows its form and the
form's own button instead: one "Spil" at a time.  Failed before: the cards had no button
until opened.  Danish 1366×768 and English 390×844."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import api, need_game, play_until_over, shot, state, wait_ready
from .test_extras import new_player

pytestmark = pytest.mark.browser


def _fresh(contexts: Any, server: str, lang: str, width: int, height: int) -> Any:
    ctx = contexts(viewport={"width": width, "height": height})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    return page


def _match_id(page: Any) -> str:
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)
    return str(page.url.split("/play/")[1].split("#")[0])


@pytest.mark.parametrize(("lang", "width", "height"), [("da", 1366, 768), ("en", 390, 844)])
def test_every_game_card_starts_its_game_with_one_click(
        contexts: Any, server: str, lang: str, width: int, height: int) -> None:
    for game in ("posthus", "gammel_jomfru"):
        need_game(game)
    games = api(server, "/api/games")
    page = _fresh(contexts, server, lang, width, height)
    word = "Spil" if lang == "da" else "Play"
    for g in games:
        card = page.locator(f"#game-{g['key']}")
        button = card.locator("button.play-now")
        assert button.is_visible(), f"{g['key']}: no visible button on its card"
        assert button.inner_text() == word
        assert not card.locator("form").is_visible()
    # opened, the form and its own button; the card's is hidden — and back
    card = page.locator("#game-gammel_jomfru")
    card.locator("summary").click()
    assert card.locator("form").is_visible()
    assert not card.locator("button.play-now").is_visible()
    card.locator("summary").click()
    assert card.locator("button.play-now").is_visible()
    shot(page, f"start-play-{lang}-{width}")

    # a solitaire at once: a running game of a random deal
    page.locator("#game-posthus button.play-now").click()
    solitaire = api(server, f"/api/matches/{_match_id(page)}")
    assert solitaire["game"] == "posthus" and solitaire["status"] == "running"
    assert state(page)["legal"]

    # a table game at once: you against computers at the game's default level
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#game-gammel_jomfru button.play-now").click()
    table = api(server, f"/api/matches/{_match_id(page)}")
    info = next(g for g in games if g["key"] == "gammel_jomfru")
    seats = table["seats"]
    assert len(seats) == info["default_seats"]
    assert seats[0]["kind"] == "human" and seats[0]["claimed"]
    assert all(s["kind"] == "bot" and s["level"] == info["default_level"] for s in seats[1:]), seats


@pytest.mark.slow  # a table game played to its end (> 5 s)
def test_nyt_spil_keeps_the_tables_choices(contexts: Any, server: str) -> None:
    """"Nyt spil" at the end of a table game opens the start page's card with that
    game's choices: its seat count, its computers' level and its variants — and the
    card's start makes that table again.  Failed before: the card opened with the
    defaults (4 seats, level 2, no variant).  On the way, the guest's "Dine spil" tells
    the game with its result, place and opponent (before: the result only)."""
    need_game("gammel_jomfru")
    player = new_player(server)
    made = api(server, "/api/matches", {
        "game": "gammel_jomfru", "seats": ["me", {"level": 1}], "player": player,
        "flags": {"nearest_first": True}})
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(f"localStorage.setItem('spillebord.player', '{player}');"
                                "localStorage.setItem('spillebord.lang', 'da');")
    page = ctx.new_page()
    page.goto(server + made["play_url"])
    wait_ready(page)
    rng = random.Random(27)
    play_until_over(page, lambda st, _i: str(rng.choice(st["legal"])))
    match_id = made["match_id"]
    outcome = state(page)["outcome"]
    page.locator("#outcome a.button[href^='/?game=']").click()
    page.wait_for_selector("body[data-ready='1']")
    # "Dine spil" tells the guest's finished game as the server knows it: the result,
    # the place and the computer at the table
    told = page.locator(f"#history-body li[data-match='{match_id}']").inner_text()
    won = 0 in outcome["winners"]
    assert ("— vundet" if won else "— tabt") in told, told
    assert "nr. " in told and "mod Computer 2 (Let)" in told, told
    card = page.locator("#game-gammel_jomfru")
    form = card.locator("form")
    assert form.is_visible(), "the card did not open"
    assert form.locator("select[name='seats']").input_value() == "2"
    assert form.locator("select[name='bot-1']").input_value() == "level:1"
    assert form.locator("input[name='nearest_first']").is_checked()
    form.locator("button[type='submit']").click()
    again = api(server, f"/api/matches/{_match_id(page)}")
    assert len(again["seats"]) == 2 and again["seats"][1]["level"] == 1, again["seats"]
    assert again["flags"]["nearest_first"] is True
