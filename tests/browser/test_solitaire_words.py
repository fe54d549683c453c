"""The solitaires speak to the player (issue 14, section 2): Posthuskabalen says when no
card can move and offers redeal or resign, asks before a redeal that lowers the bonus,
and plays the hinted move when the hinted card is clicked."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import need_game, shot, start_solitaire, state, version, wait_after

pytestmark = pytest.mark.browser

# Deal 65: after these four moves no card fits any gap (redeal and resign are left).
STUCK_DEAL, STUCK_LINE = 65, ["7S a2", "TH d3", "QS e3", "7D b2"]
# Deal 11: the solver's first hint is QC e2 while QC also fits b3.
HINT_DEAL, HINT = 11, "QC e2"


def act(page: Any, action: str) -> None:
    v = version(page)
    page.evaluate("a => window.__spillebord.session.act(a)", action)
    wait_after(page, v)


def test_posthus_stuck_offers_redeal_or_resign_and_asks_first(contexts: Any,
                                                              server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    start_solitaire(page, server, "posthus", STUCK_DEAL)
    assert page.locator(".ph-stuck").is_hidden()
    for action in STUCK_LINE:
        act(page, action)
    st = state(page)
    assert sorted(st["legal"]) == ["redeal", "resign"]
    page.wait_for_selector(".ph-stuck:not([hidden])")
    assert page.inner_text("#status") == "Intet kort kan flyttes. Læg om, eller opgiv spillet."
    assert page.locator(".ph-stuck-redeal").is_visible()
    assert page.locator(".ph-stuck-resign").is_visible()
    shot(page, "posthus-stuck")
    # The redeal costs bonus (3 now): the page asks; "cancel" changes nothing.
    v = version(page)
    page.click(".ph-stuck-redeal")
    dialog = page.locator("dialog.choice-dialog")
    dialog.wait_for()
    assert "bonus" in dialog.inner_text()
    dialog.locator("button", has_text="Annullér").click()
    page.wait_for_timeout(500)
    assert version(page) == v
    page.click(".ph-stuck-redeal")
    dialog.locator("button[data-value='redeal']").click()
    wait_after(page, v)
    assert state(page)["events"][-1]["action"] == "redeal"
    assert state(page)["view"]["round"] == 2
    assert page.inner_text("#status") == "Din tur."


def test_posthus_click_on_the_hinted_card_plays_the_hint(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1366, "height": 768}).new_page()
    start_solitaire(page, server, "posthus", HINT_DEAL)
    card = HINT.split(" ")[0]
    assert len([a for a in state(page)["legal"] if a.startswith(card + " ")]) == 2
    v = version(page)
    page.click("#hint")
    page.wait_for_function("() => window.__spillebord.hint", timeout=30000)
    assert page.evaluate("() => window.__spillebord.hint") == HINT
    page.click(f".ph-grid .card.hint[data-code='{card}']")
    wait_after(page, v)
    assert page.locator("dialog.choice-dialog[open]").count() == 0  # no "which gap?"
    assert state(page)["events"][-1]["action"] == HINT
