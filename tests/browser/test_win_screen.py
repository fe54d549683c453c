"""A solitaire win worth winning (Chromium): the win screen with the bonus, the time, the
moves and the best result on this deal, an animation the player can switch off (and
that stays off); the Posthus board uses the width it has, on a desktop and a phone; the
solver's verdict is a clear line, not small grey italics."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import api, need_game, shot, wait_ready
from .test_extras import DEAL, WIN, _act, new_player

pytestmark = pytest.mark.browser


def _open(contexts: Any, server: str, lang: str, size: tuple[int, int]) -> Any:
    player = new_player(server)
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    ctx = contexts(viewport={"width": size[0], "height": size[1]})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    return page


def test_the_win_screen(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = _open(contexts, server, "da", (1366, 768))
    for move in WIN:
        _act(page, move)
    dialog = page.locator("dialog.win-dialog")
    dialog.wait_for()
    text = dialog.inner_text()
    assert "Du vandt!" in text and "Bonus" in text and "Tid" in text, text
    facts = dialog.locator(".win-facts dd").all_inner_texts()
    assert facts[0] == "3" and facts[2] == str(len(WIN)), facts
    assert ":" in facts[1]
    assert f"spil nr. {DEAL}" in text and "Vundet, bonus 3" in text, text
    assert dialog.locator(".win-card").count() > 0, "the animation plays"
    shot(page, "posthus-win-screen-da-1366")
    toggle = dialog.get_by_label("Vis animation")
    # a checkbox of its usual size in a label that is the touch target (base.css): it
    # was a 44-px box on the game pages, which do not load the start page's styles
    box = toggle.bounding_box()
    label = dialog.locator("label.check").bounding_box()
    assert box is not None and label is not None
    assert box["height"] < 32 and label["height"] >= 44, (box, label)
    toggle.uncheck()
    assert dialog.locator(".win-card").count() == 0
    assert page.evaluate("localStorage.getItem('spillebord.win.animation')") == "off"
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")


def _grid_fits(page: Any) -> dict[str, float]:
    box: dict[str, float] = page.evaluate("""() => {
        const b = document.querySelector('#board').getBoundingClientRect();
        const rows = [...document.querySelectorAll('.ph-row')].map(r => r.getBoundingClientRect());
        const left = Math.min(...rows.map(r => r.left));
        const right = Math.max(...rows.map(r => r.right));
        return {board: b.width, boardLeft: b.left, boardRight: b.right, left, right,
                vw: window.innerWidth};
    }""")
    return box


@pytest.mark.parametrize(("lang", "size"), [("da", (1366, 768)), ("en", (390, 844))])
def test_posthus_uses_the_width_and_the_verdict_is_clear(contexts: Any, server: str,
                                                         lang: str, size: tuple[int, int]) -> None:
    need_game("posthus")
    page = _open(contexts, server, lang, size)
    _act(page, WIN[0])
    g = _grid_fits(page)
    used = (g["right"] - g["left"]) / g["board"]
    # Before: 570 of 900 px, at the left.  Now the cards grow with the board (up to what
    # keeps the four rows in the window) and the grid is centred.
    assert used > 0.7, f"the grid uses {used:.0%} of the board: {g}"
    left_margin, right_margin = g["left"] - g["boardLeft"], g["boardRight"] - g["right"]
    assert abs(left_margin - right_margin) < 24, g
    assert g["left"] >= 4 and g["right"] <= g["vw"] - 4, f"the grid touches the edge: {g}"
    verdict = page.locator("#verdict")
    page.wait_for_function("() => document.querySelector('#verdict').textContent.trim()",
                           timeout=30000)
    style = verdict.evaluate("""v => { const s = getComputedStyle(v);
        return [s.fontStyle, Number(s.fontWeight), parseFloat(s.fontSize), s.color]; }""")
    assert style[0] == "normal" and style[1] >= 600 and style[2] >= 15, style
    shot(page, f"posthus-board-{lang}-{size[0]}")
