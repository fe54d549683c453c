"""Studenterkabalen's move list in Chromium names the card that moved — worded from the
server's move facts (the state before the move), not from the card now on the source
pile: every line of a played game, the undo and redo lines, and the replay's list."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import api, need_game, state, version, wait_after, wait_ready
from .test_extras import new_player

pytestmark = pytest.mark.browser
DEAL = 3


def _card_at(view: dict[str, Any], src: str) -> str:
    if src == "row":
        return str(view["row"][-1])
    if src == "left":
        return str(view["row"][0])
    if src == "waste":
        return str(view["waste"][-1])
    return str(view["helpers"][int(src[1:]) - 1])


def _name(page: Any, code: str) -> str:
    return str(page.evaluate("c => import('/static/js/i18n.js').then(m => m.cardName(c))", code))


def _send(page: Any, kind: str, action: str = "") -> None:
    v = version(page)
    if kind == "act":
        page.evaluate("a => window.__spillebord.session.act(a)", action)
    else:
        page.click(f"#{kind}")
    wait_after(page, v)


def _top_line(page: Any) -> str:
    return str(page.locator("#log li").first.inner_text())


def test_each_line_names_the_card_that_moved(contexts: Any, server: str) -> None:
    need_game("studenter")
    player = new_player(server)
    res = api(server, "/api/matches", {"game": "studenter", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        "localStorage.setItem('spillebord.lang', 'da');"
        "localStorage.setItem('spillebord.st.automove', 'off');"
        "localStorage.setItem('spillebord.st.autofinish', 'off');")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    moved: list[str] = []  # the card of each move on the board, in order
    card_moves = 0
    for _ in range(60):
        st = state(page)
        moves = [a for a in st["legal"] if ">" in a]
        if moves:
            action = moves[0]
            code = _card_at(st["view"], action.split(">")[0])
            card_moves += 1
        elif "draw" in st["legal"]:
            action, code = "draw", ""
        else:
            break
        _send(page, "act", action)
        if action == "draw":
            code = str(state(page)["view"]["waste"][-1])
        moved.append(code)
        line = _top_line(page)
        assert _name(page, code) in line, f"{action} moved {code}, the log says {line!r}"
        if card_moves >= 6:
            break
    assert card_moves >= 4, "the deal should offer several card moves"
    # Undo and redo name the card of the move they take back or play again.
    _send(page, "undo")
    assert _name(page, moved[-1]) in _top_line(page) and "fortrudt" in _top_line(page)
    _send(page, "redo")
    assert _name(page, moved[-1]) in _top_line(page) and "gentaget" in _top_line(page)
    # The replay's list names each step's card the same way.
    page.goto(server + f"/replay/{res['match_id']}")
    page.wait_for_selector("body[data-ready='1']")
    lines = page.locator("#actions li button").all_inner_texts()[1:]
    assert len(lines) == len(moved)
    for code, line in zip(moved, lines, strict=True):
        assert _name(page, code) in line, (code, line, lines)
