"""Posthuskabalen in the browser: a winnable deal won by following the hints, clicking
what the hint lights up (the card, or the redeal button), and a gap click that lights
the cards fitting it."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import need_game, shot, start_solitaire, state, version, wait_after

pytestmark = pytest.mark.browser


def follow_hint(page: Any) -> str:
    before = page.evaluate("() => window.__spillebord.hints || 0")
    v = version(page)
    page.click("#hint")
    page.wait_for_function("n => (window.__spillebord.hints || 0) > n", arg=before, timeout=30000)
    hint = page.evaluate("() => window.__spillebord.hint")
    assert hint, "the solver gave no hint on a winnable deal"
    if hint == "redeal":
        page.click(".ph-redeal.hint")
        if state(page)["view"]["bonus"] > 0:  # a redeal that lowers the bonus asks first
            page.locator("dialog.choice-dialog button[data-value='redeal']").click()
    else:
        card, gap = hint.split(" ")
        lit = page.locator(f".ph-grid .card.hint[data-code='{card}']")
        assert lit.count() == 1, f"the hint {hint} is not lit on the board"
        assert page.locator(f".ph-grid .gap.hint[data-place='{gap}']").count() == 1
        lit.click()  # the hinted card plays the hinted move: no "which gap?"
    wait_after(page, v, timeout=20000)
    assert state(page)["events"][-1]["action"] == hint
    return str(hint)


def test_posthus_won_by_following_hints(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1200, "height": 900}).new_page()
    # A deal the solver proves winnable quickly (its hints then follow a winning line);
    # the start page's "winnable deals only" is exercised in test_winnable_deal below.
    start_solitaire(page, server, "posthus", 386886893)
    assert page.locator(".ph-grid .card").count() == 32
    # A click on a gap lights exactly the cards whose legal action fills that gap.
    st = state(page)
    gap = st["view"]["gaps"][0]
    page.click(f".ph-grid [data-place='{gap}']")
    fits = sorted(a.split(" ")[0] for a in st["legal"] if a.endswith(" " + gap))
    lit = sorted(page.locator(".ph-grid .card.highlight").evaluate_all(
        "els => els.map(e => e.dataset.code)"))
    assert lit == fits
    shot(page, "posthus-start")
    seen: list[str] = []
    hints: list[str] = []
    for _ in range(400):
        if state(page)["outcome"]:
            break
        grid = str(state(page)["view"]["grid"]) + str(state(page)["view"]["round"])
        if seen.count(grid) >= 2:
            # Known server-side bug (docs/web.md, "Requests to the server" 2): the page
            # did its part for every hint so far; the hints themselves undo each other.
            pytest.xfail(f"the server's posthus hints go round in circles: {hints[-6:]}")
        seen.append(grid)
        hints.append(follow_hint(page))
    outcome = state(page)["outcome"]
    assert outcome and outcome["winners"] == [0], outcome
    page.wait_for_selector("#outcome:not([hidden])")
    assert outcome["bonus"] in (1, 2, 3)
    assert "Bonus" in page.inner_text("#outcome") or "bonus" in page.inner_text("#outcome")
    shot(page, "posthus-won")


def test_winnable_deal_from_the_start_page(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1000, "height": 800}).new_page()
    start_solitaire(page, server, "posthus", "winnable")
    page.wait_for_function("() => document.getElementById('verdict').textContent !== ''",
                           timeout=30000)
    # Proven winnable when dealt; a short verdict budget may only say "unknown".
    assert page.inner_text("#verdict") in ("Kan stadig vindes.", "Uvist om den kan vindes.")
    assert page.locator("#share-deal").is_visible()
