"""Keyboard only on the start page, in Chromium: tabbing through a solitaire's form
(past the deal-number box) changes no choice, and Enter on "Spil" starts a random deal;
typing a number into the box is what chooses "Spil nr."."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import need_game, state, wait_ready

pytestmark = pytest.mark.browser


def _tab_to(page: Any, js_test: str, limit: int = 80) -> list[str]:
    """Press Tab until ``js_test`` (about document.activeElement) holds; the checked deal
    choice after every press is returned."""
    seen: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(
            "() => (document.querySelector(\"form[data-game='posthus'] "
            "input[name='posthus-deal']:checked\") || {}).value || ''"))
        if page.evaluate(f"() => {{ const a = document.activeElement; return {js_test}; }}"):
            return seen
    raise AssertionError(f"never reached {js_test}")


def test_random_deal_with_the_keyboard_only(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    _tab_to(page, "a.tagName === 'SUMMARY' && a.closest('#game-posthus') !== null")
    page.keyboard.press("Enter")
    inside = "a.closest(\"form[data-game='posthus']\") !== null"
    seen = _tab_to(page, f"a.name === 'deal-number' && {inside}")
    seen += _tab_to(page, f"a.type === 'submit' && {inside}")
    assert set(seen) - {""} == {"random"}, f"focus changed the deal choice: {seen}"
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)
    assert state(page)["view"]["round"] == 1


def test_typing_a_number_chooses_it(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#game-posthus summary")
    box = page.locator("form[data-game='posthus'] input[name='deal-number']")
    box.focus()
    assert page.locator("form[data-game='posthus'] input[value='random']").is_checked()
    page.keyboard.type("7")
    assert page.locator("form[data-game='posthus'] input[value='number']").is_checked()
    page.keyboard.press("Enter")
    page.wait_for_url("**/play/**", timeout=30000)
    wait_ready(page)
    assert page.evaluate("fetch('/api/matches/' + location.pathname.split('/').pop())"
                         ".then(r => r.json()).then(m => m.deal)") == 7
