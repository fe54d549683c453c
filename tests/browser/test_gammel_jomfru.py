"""Gammel Jomfru in the browser: a table opened from the start page with two bots, played
to the end by clicking — the own face-down pile to turn a card, then one of the places
that light up.  Only legal places may light up, and the ranking shows at the end."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import (
    api,
    need_game,
    open_room,
    shot,
    state,
    version,
    wait_after,
    wait_my_turn,
    wait_ready,
)

pytestmark = pytest.mark.browser


def lit_actions(page: Any) -> list[str]:
    found = page.locator("#board .target").evaluate_all("els => els.map(e => e.dataset.action)")
    return sorted(found)


def test_gammel_jomfru_against_bots_to_the_end(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    # This player clicks every move, forced ones too (the setting is off: conftest).
    page = contexts(viewport={"width": 1200, "height": 900}).new_page()
    open_room(page, server, "gammel_jomfru", ["me", "bot", "bot"])
    assert page.locator(".gj-seat").count() == 3
    shot_taken = False
    for _ in range(3000):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["outcome"]:
            break
        legal = st["legal"]
        # Exactly the legal places light up, nothing else.
        page.wait_for_function("n => document.querySelectorAll('#board .target').length === n",
                               arg=len(legal))
        assert lit_actions(page) == sorted(legal)
        # The centre piles carry the numbers the log uses.
        numbers = page.locator("#board .gj-pile-no").all_inner_texts()
        piles = len(st["view"]["centre"]) + ("centre" in legal)
        assert numbers == [str(i) for i in range(1, piles + 1)]
        action = "turn" if "turn" in legal else legal[0]
        if action != "turn" and not shot_taken:
            shot(page, "gammel-jomfru")
            shot_taken = True
        v = version(page)
        page.click(f"#board .target[data-action='{action}']")
        wait_after(page, v, timeout=30000)
    outcome = state(page)["outcome"]
    assert outcome, "the game did not finish"
    page.wait_for_selector("#outcome:not([hidden]) .ranking li")
    ranking = page.locator("#outcome .ranking li").all_inner_texts()
    assert len(ranking) == 3
    assert any("gammel jomfru" in r for r in ranking)
    shot(page, "gammel-jomfru-end")
    # Every log line names the card and where it went, in words (no action codes).
    lines = page.locator("#log li").all_inner_texts()
    assert len(lines) == 8
    for line in lines:
        assert any(suit in line for suit in ("klør", "ruder", "hjerter", "spar")), line
        assert not any(word in line.split() for word in ("turn", "keep", "centre")), line
        assert "vender et kort" not in line and "Dig" not in line, line
        assert "hos Du" not in line, line  # a card played onto my pile: "på din …"

    # The finished game opens as a replay: every action listed, each step drawn by the
    # server's spectator view of that step.
    n_events = page.evaluate("() => window.__spillebord.log.filter(e => e.kind === 'act').length")
    page.click("#outcome a[href^='/replay/']")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#actions li").count() == n_events + 1
    assert page.locator("#board .gj-seat").count() == 3
    page.click("#first")
    page.wait_for_function("() => document.querySelectorAll('#board .gj-down .count').length === 3")
    page.click("#next")
    page.wait_for_selector("#actions li.current[data-step='1']")
    shot(page, "replay")

    # The start page's statistics now chart this game.
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#stats-body svg.chart").count() >= 2
    assert page.locator("#stats-body polyline.line-games").count() == 1
    assert page.locator("#history-body a[href^='/replay/']").count() >= 1
    shot(page, "start")


def test_gammel_jomfru_eight_seats_fit(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    res = api(server, "/api/matches", {"game": "gammel_jomfru",
                                       "seats": [{"bot": "random", "level": None}] * 8})
    page = contexts(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(f"{server}/play/{res['match_id']}")
    wait_ready(page)
    page.wait_for_function("() => window.__spillebord.ready")
    # Query and measure in one task: the bots keep playing and the page re-renders, so
    # elements found by a separate query may already be detached when measured.
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('.gj-seat, .gj-centre')].map(e => {"
        " const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    assert len(boxes) == 9
    board = page.locator("#board").bounding_box()
    assert board
    for i, (l1, t1, r1, b1) in enumerate(boxes):
        inside = l1 >= board["x"] - 1 and r1 <= board["x"] + board["width"] + 1
        assert inside, f"box {i} {boxes[i]} leaves the board {board}"
        for l2, t2, r2, b2 in boxes[i + 1:]:
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, "seats overlap"
    shot(page, "gammel-jomfru-8")


def test_gammel_jomfru_forced_moves_play_themselves(contexts: Any, server: str) -> None:
    """With the setting on (the default) a turn with one possible action is played by the
    page; the player clicks only real choices.  Turned off, nothing moves by itself."""
    need_game("gammel_jomfru")
    ctx = contexts(viewport={"width": 1200, "height": 900})
    # A player who never touched the setting (conftest turns it off for other tests).
    ctx.context.add_init_script("sessionStorage.setItem('keep-autoplay', '1'); "
                                "localStorage.removeItem('spillebord.gj.autoplay')")
    page = ctx.new_page()
    open_room(page, server, "gammel_jomfru", ["me", "bot"])
    box = page.get_by_label("Spil tvungne træk af sig selv")
    assert box.is_checked()
    # Off: the own "turn" (the only action) waits for the player.
    box.uncheck()
    wait_my_turn(page, timeout=60000)
    if len(state(page)["legal"]) == 1:
        v = version(page)
        page.wait_for_timeout(1500)
        assert version(page) == v, "a forced move was played with the setting off"
    box.check()
    clicks = 0
    for _ in range(3000):
        wait_my_turn(page, timeout=60000)
        st = state(page)
        if st["outcome"]:
            break
        if len(st["legal"]) <= 1:
            page.wait_for_timeout(50)  # the page plays a forced move; nothing to click
            continue
        v = version(page)
        page.click(f"#board .target[data-action='{st['legal'][0]}']")
        clicks += 1
        wait_after(page, v, timeout=30000)
    assert state(page)["outcome"], "the game did not finish"
    mine = page.evaluate("() => window.__spillebord.log.filter(e => e.seat === 0).length")
    # Most of a game is forced: the page played every one of those moves.
    assert clicks < mine / 2, (clicks, mine)
