"""The replay page's controls, in Chromium: "Afspil" turns into "Pause" and back, every
step button and Escape stop the playback, Space toggles it, and a speed choice makes it
faster — all from the keyboard too."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import api, need_game, wait_ready
from .test_extras import DEAL, WIN, _act, new_player

pytestmark = pytest.mark.browser


def _replay(contexts: Any, server: str) -> Any:
    player = new_player(server)
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        "localStorage.setItem('spillebord.lang', 'da');")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    for move in WIN[:30]:
        _act(page, move)
    page.goto(server + f"/replay/{res['match_id']}")
    page.wait_for_selector("body[data-ready='1']")
    return page


PRESSED = "document.querySelector('#auto').getAttribute('aria-pressed')"
MOVED = "() => /Træk [1-9]/.test(document.querySelector('#step').textContent)"


def _step(page: Any) -> int:
    return int(page.locator("#step").inner_text().split()[1])


def _to_start(page: Any) -> None:
    if _step(page) != 0:
        page.click("#first")


def _playing(page: Any) -> bool:
    return bool(page.evaluate(PRESSED) == "true")


def test_replay_play_pause_steps_keys_and_speed(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = _replay(contexts, server)
    auto = page.locator("#auto")
    page.click("#first")
    assert _step(page) == 0 and auto.inner_text() == "Afspil"
    # Play, then the same button pauses.
    auto.click()
    assert auto.inner_text() == "Pause" and _playing(page)
    page.wait_for_function(MOVED)
    auto.click()
    assert auto.inner_text() == "Afspil" and not _playing(page)
    held = _step(page)
    page.wait_for_timeout(1500)
    assert _step(page) == held, "a paused replay does not move on"
    # Any step stops it: ‹ Forrige, « Start, Næste ›, Slut ».
    for step_button in ("#prev", "#first", "#next", "#last"):
        _to_start(page)
        auto.click()
        assert _playing(page)
        page.wait_for_function(MOVED)
        page.click(step_button)
        assert not _playing(page), f"{step_button} must stop the playback"
        held = _step(page)
        page.wait_for_timeout(1300)
        assert _step(page) == held, f"the replay went on after {step_button}"
    # Keyboard: Space toggles (focus on the page, not on a button), Escape stops, arrows step.
    _to_start(page)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Space")
    assert _playing(page)
    page.keyboard.press("Space")
    assert not _playing(page)
    page.keyboard.press("Space")
    assert _playing(page)
    page.keyboard.press("Escape")
    assert not _playing(page)
    held = _step(page)
    page.wait_for_timeout(1300)
    assert _step(page) == held
    page.keyboard.press("ArrowRight")
    assert _step(page) == held + 1
    # Speed: 10× plays the 30 moves in a few seconds (1× takes about a second a move).
    speed = page.locator("#speed")
    labels = speed.evaluate("s => [...s.options].map(o => o.textContent)")
    assert labels == ["1×", "2×", "5×", "10×"]
    speed.focus()
    speed.select_option("10")
    _to_start(page)
    auto.focus()
    page.keyboard.press("Enter")
    assert _playing(page)
    page.wait_for_function(
        "() => /Træk 30 af 30/.test(document.querySelector('#step').textContent)", timeout=30000)
    page.wait_for_function(f"() => {PRESSED} === 'false'")
    assert auto.inner_text() == "Afspil", "the playback stops by itself at the end"
