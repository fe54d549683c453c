"""Each game played to its end with the keyboard alone (Tab, arrows, Enter; never a
click) in Chromium: Studenterkabalen through "Alle træk…" until no move is left,
Posthuskabalen won with the arrow keys and Enter (a choice of two holes answered with
Tab and Enter), Gammel Jomfru and Kugler og Jokere against bots by tabbing to the lit
places, the hand's cards and the moves.  Every card, pile and marble on the board has an
accessible name, and the opponents' moves are read out in the live region."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .helpers import api, need_game, state, version, wait_ready
from .test_extras import DEAL, WIN

pytestmark = pytest.mark.browser
BOT = {"bot": "random", "level": None}

# Names of the board's things: every card, pile, place and marble a player can meet.
UNNAMED = """() => [...document.querySelectorAll(
    '#board .card, #board [role=button], #board [role=img], #board .kg-marble, #board button')]
    .filter(e => !(e.getAttribute('aria-label') || '').trim()
                 && !(e.tagName === 'BUTTON' && e.textContent.trim()))
    .map(e => e.outerHTML.slice(0, 120))"""


def focused(page: Any, predicate: str) -> bool:
    return bool(page.evaluate(f"() => {{ const e = document.activeElement; "
                              f"return !!e && e !== document.body && ({predicate}); }}"))


def tab_to(page: Any, predicate: str, limit: int = 150) -> bool:
    """Press Tab until the focused element satisfies ``predicate`` (JS, on ``e``)."""
    for _ in range(limit):
        if focused(page, predicate):
            return True
        page.keyboard.press("Tab")
    return False


def open_game(contexts: Any, server: str, spec: dict[str, Any]) -> Any:
    res = api(server, "/api/matches", spec)
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    return page


def wait_turn_or_end(page: Any, after: int) -> dict[str, Any]:
    page.wait_for_function(
        "v => { const d = window.__spillebord; const s = d.state; return s && "
        "(s.outcome || (s.legal.length > 0 && d.session.version > v && "
        "document.body.dataset.version == d.session.version)); }", arg=after, timeout=60000)
    return state(page)


def assert_named(page: Any) -> None:
    unnamed = page.evaluate(UNNAMED)
    assert not unnamed, f"board things without an accessible name: {unnamed[:5]}"


def test_studenter_by_keyboard(contexts: Any, server: str) -> None:
    need_game("studenter")
    page = open_game(contexts, server, {"game": "studenter", "seats": ["me"], "deal": 11})
    assert_named(page)
    moves = 0
    st = state(page)
    while not st["outcome"]:
        v = version(page)
        assert tab_to(page, "e.classList.contains('st-all-moves')"), "no 'all moves' button"
        page.keyboard.press("Enter")
        page.wait_for_selector("dialog.choice-dialog")
        # The dialog opens on its first move; a resignation is passed over with Tab.
        assert tab_to(page, "e.dataset.value && e.dataset.value !== 'resign'", 400)
        page.keyboard.press("Enter")
        st = wait_turn_or_end(page, v)
        moves += 1
        assert moves < 1000
    assert st["outcome"]["reason"] == "stuck", st["outcome"]
    page.wait_for_selector("#outcome:not([hidden])")


def test_posthus_by_keyboard(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = open_game(contexts, server, {"game": "posthus", "seats": ["me"], "deal": DEAL})
    assert_named(page)
    assert tab_to(page, "e.closest('.ph-grid') && e.dataset.place")
    for move in WIN:
        card = move.split(" ")[0]
        where = page.evaluate(
            "c => { for (const el of document.querySelectorAll('.ph-grid [data-code]')) "
            "if (el.dataset.code === c) return el.dataset.place; return null; }", card)
        here = page.evaluate("() => document.activeElement.dataset.place")
        dc = ord(where[0]) - ord(here[0])
        dr = int(where[1]) - int(here[1])
        for _ in range(abs(dc)):
            page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
        for _ in range(abs(dr)):
            page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
        assert page.evaluate("() => document.activeElement.dataset.code") == card
        v = version(page)
        page.keyboard.press("Enter")
        if page.locator("dialog.choice-dialog").count():
            assert tab_to(page, f"e.dataset.value === '{move}'", 10)
            page.keyboard.press("Enter")
        page.wait_for_function("v => window.__spillebord.session.version > v", arg=v)
        page.wait_for_function("() => document.body.dataset.version == "
                               "window.__spillebord.session.version")
        if state(page)["outcome"]:
            break  # the win screen takes the focus (its Close button)
        if not focused(page, "e.closest('.ph-grid') && e.dataset.place"):
            assert tab_to(page, "e.closest('.ph-grid') && e.dataset.place")
    assert state(page)["outcome"]["reason"] == "won"
    page.wait_for_selector("dialog.win-dialog")
    assert focused(page, "e.closest('dialog.win-dialog') && e.tagName === 'BUTTON'")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.win-dialog", state="detached")


def test_gammel_jomfru_by_keyboard(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    page = open_game(contexts, server, {"game": "gammel_jomfru", "seats": ["me", BOT, BOT]})
    page.evaluate("""() => { window.__heard = [];
        new MutationObserver(() => window.__heard.push(document.getElementById('live')
          .textContent)).observe(document.getElementById('live'),
          {childList: true, characterData: true, subtree: true}); }""")
    rng = random.Random(3)
    st = wait_turn_or_end(page, -1)
    turns = 0
    while not st["outcome"]:
        assert_named(page)
        legal = st["legal"]
        want = "turn" if "turn" in legal else rng.choice(legal)
        v = version(page)
        if not tab_to(page, f"e.classList.contains('target') && e.dataset.action === '{want}'"):
            assert version(page) > v, f"no lit place for {want} by Tab"  # played meanwhile
        else:
            page.keyboard.press("Enter")
        st = wait_turn_or_end(page, v)
        turns += 1
        assert turns < 2000
    page.wait_for_selector("#outcome:not([hidden]) .ranking li")
    names = [page.evaluate(f"() => window.__spillebord && document.querySelector("
                           f"'.gj-seat[data-seat=\"{s}\"] .gj-name').textContent") for s in (1, 2)]
    heard = page.evaluate("() => window.__heard")
    said = [h for h in heard for n in names if n and h.startswith(n.split(" (")[0])]
    assert said, f"no opponent's move was read out: {names}, {heard[:5]}"


def test_kugler_by_keyboard(contexts: Any, server: str) -> None:
    need_game("kugler")
    page = open_game(contexts, server, {"game": "kugler", "seats": ["me", BOT, BOT, BOT]})
    rng = random.Random(5)
    st = wait_turn_or_end(page, -1)
    turns = 0
    while not st["outcome"]:
        if turns % 10 == 0:
            assert_named(page)
        legal = st["legal"]
        want = rng.choice(legal)
        card = want.split(" ")[1] if want.startswith("discard ") else want.split(" ")[0]
        v = version(page)
        assert tab_to(page, f"e.matches('#board button.card') && e.dataset.code === '{card}'",
                      300), f"the card {card} is not reachable by Tab"
        page.keyboard.press("Enter")
        if page.locator("#board .kg-show-all").count():  # a long list behind one button
            assert tab_to(page, "e.classList.contains('kg-show-all')", 300)
            page.keyboard.press("Enter")
        assert tab_to(page, f"e.dataset.action === '{want}'", 300), f"{want} not reachable"
        page.keyboard.press("Enter")
        st = wait_turn_or_end(page, v)
        turns += 1
        assert turns < 3000
    assert st["outcome"]["winners"]
