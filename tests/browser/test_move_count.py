"""Posthuskabalen's move count in Chromium: the count beside the clock is the number of
moves on the board (an undo takes one off, a redo puts it back), the move list numbers
only the moves (not the undo and redo lines), and the best result and the statistics of
a won game with undos in it count the moves of the win."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import api, need_game, wait_ready
from .test_extras import DEAL, WIN, _act, new_player

pytestmark = pytest.mark.browser


def _key(page: Any, what: str) -> None:
    v = int(page.evaluate("() => window.__spillebord.session.version"))
    page.click(what)
    page.wait_for_function("v => document.body.dataset.version > v", arg=v)


def _numbers(page: Any) -> list[tuple[str, str]]:
    """(number shown, line) of the move list, newest first; '' where no number shows."""
    rows: list[tuple[str, str]] = page.evaluate("""() => [...document.querySelectorAll(
        '#log li')].map(li => [getComputedStyle(li).listStyleType === 'none' ? ''
        : String(li.value), li.textContent])""")
    return rows


def test_the_count_is_the_moves_on_the_board(contexts: Any, server: str) -> None:
    need_game("posthus")
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
    clock = page.locator("#clock")
    _act(page, WIN[0])
    _act(page, WIN[1])
    assert clock.inner_text().endswith("· 2 træk")
    _key(page, "#undo")
    assert clock.inner_text().endswith("· 1 træk"), "an undo takes the move off the count"
    _key(page, "#redo")
    assert clock.inner_text().endswith("· 2 træk"), "a redo puts it back, once"
    _key(page, "#undo")
    _key(page, "#undo")
    assert clock.inner_text().endswith("· 0 træk")
    _key(page, "#redo")
    assert clock.inner_text().endswith("· 1 træk")
    rows = _numbers(page)
    # newest first: redo, undo, undo, redo, undo, move 2, move 1
    assert [n for n, _ in rows] == ["", "", "", "", "", "2", "1"], rows
    for move in WIN[1:]:
        _act(page, move)
    assert clock.inner_text().endswith(f"· {len(WIN)} træk")
    page.wait_for_function("() => document.querySelector('#best').innerText.includes('Vundet')")
    best = page.locator("#best").inner_text()
    assert f"· {len(WIN)} træk" in best, best
    stats = api(server, f"/api/players/{player}/stats")
    game = stats["by_game"]["posthus"]
    assert game["best_moves"] == len(WIN), game
    record = api(server, f"/api/matches/{res['match_id']}/record")
    assert record["clock"]["moves"] == len(WIN)
