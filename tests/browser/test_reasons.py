"""A refused action in the browser says why in the player's language: on the Danish page
an illegal posthus move shows the code's sentence and the reason with Danish card names
(never the server's English reason), on the English page the English sentence; the
board and the version stay as they were."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.reasons import catalogue

from spillebord import games
from spillebord.core.errors import IllegalActionError

from .helpers import need_game, open_room, shot, start_solitaire, state, version, wait_my_turn

pytestmark = pytest.mark.browser

DEAL = 7


def card_name(lang: str, code: str) -> str:
    cat = catalogue(lang)
    if code == "JK":
        return cat["card.joker"]
    return cat["card.name"].format(suit=cat[f"suit.{code[1]}"], rank=cat[f"rank.{code[0]}"])


def place_words(lang: str, place: str) -> str:
    """A posthus place as the page says it: "række 2, plads 3" for c2."""
    return catalogue(lang)["posthus.place"].format(row=int(place[1:]),
                                                   col="abcdefgh".index(place[0]) + 1)


def expected(lang: str, code: str, exc: IllegalActionError) -> str:
    """What ui.js errorText shows for the refusal: the code's sentence, then the reason
    with card names for the cards and words for the places."""
    cat = catalogue(lang)
    params = {k: card_name(lang, v) if k in exc.cards else
              place_words(lang, v) if k in exc.places else v for k, v in exc.params.items()}
    why = re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], cat[f"refused.{exc.key}"])
    return f"{cat[f'error.{code}']} ({why[:1].upper()}{why[1:]})"


def refused_move(page: Any) -> tuple[str, IllegalActionError]:
    """A card move the rules refuse on the page's board, and the error the rules give."""
    local = games.load("posthus").new(DEAL)
    st = state(page)
    assert [str(a) for a in local.legal_actions()] == st["legal"], "not the same deal"
    for gap in st["view"]["gaps"]:
        for action in st["legal"]:
            card = action.split(" ")[0]
            if " " in action and f"{card} {gap}" not in st["legal"]:
                try:
                    local.apply(f"{card} {gap}")
                except IllegalActionError as exc:
                    if exc.key and exc.key.startswith("posthus.no_fit."):
                        return f"{card} {gap}", exc
    raise AssertionError("no refused card move found")


def refuse(page: Any, text: str) -> str:
    board, v = page.inner_html("#board"), version(page)
    page.evaluate("() => { document.getElementById('messages').hidden = true; }")
    page.evaluate("t => window.__spillebord.session.act(t)", text)
    page.wait_for_selector("#messages.error:not([hidden])")
    page.wait_for_timeout(300)  # any (wrong) redraw would come with the error
    assert version(page) == v
    assert page.inner_html("#board") == board
    return str(page.inner_text("#messages"))


def test_a_refused_move_is_explained_in_danish_and_english(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1100, "height": 850}).new_page()
    start_solitaire(page, server, "posthus", DEAL)
    assert page.evaluate("document.documentElement.lang") == "da"
    text, exc = refused_move(page)

    shown = refuse(page, text)
    assert shown == expected("da", "illegal", exc), shown
    assert "passer ikke" in shown and card_name("da", exc.params["card"]) in shown.lower()
    assert str(exc) not in shown and "does not fit" not in shown
    assert exc.places == ("place",)
    assert place_words("da", exc.params["place"]) in shown
    assert not re.search(r"\b[a-h][1-4]\b", shown), shown  # no place code on screen
    shot(page, "refused-danish", publish=False)

    # A refusal without a key (the server's own "stale") is the code's sentence alone.
    page.evaluate("t => { const s = window.__spillebord.session; s.ws.send(JSON.stringify("
                  "{t: 'act', v: s.version + 3, d: {action: t}})); }", text)
    page.wait_for_function("() => document.getElementById('messages').textContent"
                           ".startsWith('Spillet var gået videre')")
    assert page.inner_text("#messages") == catalogue("da")["error.stale"]

    # The same move on the English page: the English sentence, English card names.
    page.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    page.reload()
    page.wait_for_function("() => window.__spillebord && window.__spillebord.state")
    assert page.evaluate("document.documentElement.lang") == "en"
    shown = refuse(page, text)
    assert shown == expected("en", "illegal", exc), shown
    assert card_name("en", exc.params["card"]) in shown.lower()
    assert place_words("en", exc.params["place"]) in shown
    assert not re.search(r"\b[a-h][1-4]\b", shown), shown


def test_a_kugler_refusal_says_its_places_in_words(contexts: Any, server: str) -> None:
    """A kugler move from another seat's start area: the reason names both start areas
    in words ("dit startområde", "your start area"), never as s0/s1 (issue 14)."""
    need_game("kugler")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    open_room(page, server, "kugler", ["me", "bot", "bot", "bot"])
    wait_my_turn(page)
    st = state(page)
    card = next(c for c in st["view"]["hand"] if c != "JK")
    other = 1  # the next seat's start area; mine (seat 0) is s0
    shown = refuse(page, f"{card} s{other}-t18")
    cat = catalogue("da")
    assert cat["error.illegal"] in shown, shown
    assert "dit startområde" in shown, shown
    assert not re.search(r"\b(?:[ts]\d{1,2}|h\d\.\d)\b", shown), shown
    shot(page, "kugler-refused-danish", publish=False)
    page.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    page.reload()
    page.wait_for_function("() => window.__spillebord && window.__spillebord.state")
    wait_my_turn(page)
    shown = refuse(page, f"{card} s{other}-t18")
    assert "start from your start area, not from" in shown, shown
    assert not re.search(r"\b(?:[ts]\d{1,2}|h\d\.\d)\b", shown), shown
