"""A hint's highlight belongs to the position it was given for (Chromium): Posthus's
"Læg om" hint frame goes on an undo, on the redeal itself and at the end, and a card
hint's frame goes when a move is made."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import need_game, start_solitaire, version, wait_after
from .test_solitaire_words import HINT, HINT_DEAL, STUCK_DEAL, STUCK_LINE, act

pytestmark = pytest.mark.browser
LIT = "#board .hint.highlight"


def _hint(page: Any) -> str:
    page.evaluate("() => { window.__spillebord.hint = undefined; }")
    page.click("#hint")
    page.wait_for_function("() => window.__spillebord.hint !== undefined", timeout=30000)
    page.wait_for_selector(LIT)
    return str(page.evaluate("() => window.__spillebord.hint"))


def _press(page: Any, button: str) -> None:
    v = version(page)
    page.click(button)
    wait_after(page, v)


def test_a_hint_frame_goes_when_the_position_changes(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    start_solitaire(page, server, "posthus", HINT_DEAL)
    card_hint = _hint(page)
    assert card_hint == HINT
    act(page, card_hint)
    assert page.locator(LIT).count() == 0, "a played hint's frame stayed"
    _hint(page)
    _press(page, "#undo")
    assert page.locator(LIT).count() == 0, "the hint frame stayed through the undo"
    _hint(page)
    act(page, "resign")
    assert page.locator(LIT).count() == 0, "the hint frame stayed at the end"


def test_no_move_is_framed_in_a_lost_position(contexts: Any, server: str) -> None:
    """The stuck line's position cannot be won: the hint says so and frames nothing —
    not "Læg om" (issue 27, finding 9: it used to frame the redeal here)."""
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    start_solitaire(page, server, "posthus", STUCK_DEAL)
    for action in STUCK_LINE:
        act(page, action)
    page.evaluate("() => { window.__spillebord.hint = undefined; }")
    page.click("#hint")
    page.wait_for_function("() => window.__spillebord.hint !== undefined", timeout=30000)
    assert page.evaluate("() => window.__spillebord.hint") is None
    assert page.locator(LIT).count() == 0
    page.locator("#rewind").wait_for(state="visible", timeout=30000)
