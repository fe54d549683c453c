"""What players of solitaire sites expect, in Chromium: the clock (time and moves) that
counts the moves on the board (an undo takes one off), the best result on a deal after a win, "play
this deal again" opening the same deal, and the rules in a dialog (Danish and English)
that closes with Escape and gives the focus back."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from .helpers import api, need_game, shot, state, version, wait_after, wait_ready

pytestmark = pytest.mark.browser
DEAL = 386886893
WIN = ["JH f3", "7H a2", "TS f2", "7D a1", "9H d3", "8H b2", "9H c2", "9S d3", "TH d2",
       "TS e3", "JC f2", "8D b1", "KD h3", "TD f4", "9D c1", "JD g4", "QD h4", "QH g3",
       "KC e1", "9C b3", "QS h2", "8S b4", "9S c4", "TC c3", "JH e2", "JS f3", "8C e4",
       "7C a3", "TS d4", "QC g2", "TD d1", "9C f4", "8C b3", "JS e4", "JC d3", "QH f2",
       "QD g3", "JD f3", "TC g4", "9C c3", "QS f4", "JC h4", "TC d3", "JC e3", "KS g4",
       "KC h2", "JD e1", "QC f3", "KH g2", "QD f1", "KC g3", "KD g1"]


def new_player(server: str) -> str:
    req = urllib.request.Request(server + "/api/players", data=b"", method="POST")
    with urllib.request.urlopen(req, timeout=60) as res:
        player: str = json.loads(res.read())["player_id"]
    return player


def _open(contexts: Any, server: str, lang: str = "da") -> tuple[Any, str]:
    player = new_player(server)
    res = api(server, "/api/matches", {"game": "posthus", "seats": ["me"], "deal": DEAL,
                                       "player": player})
    ctx = contexts(viewport={"width": 1366, "height": 768})
    ctx.context.add_init_script(
        f"localStorage.setItem('spillebord.player', '{player}');"
        f"localStorage.setItem('spillebord.lang', '{lang}');")
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    return page, res["match_id"]


def _act(page: Any, text: str) -> None:
    v = version(page)
    page.evaluate("t => window.__spillebord.session.act(t)", text)
    wait_after(page, v)


def test_clock_best_result_and_same_deal(contexts: Any, server: str) -> None:
    need_game("posthus")
    page, first = _open(contexts, server)
    clock = page.locator("#clock")
    assert re.fullmatch(r"Tid \d:\d\d · 0 træk", clock.inner_text()), clock.inner_text()
    assert page.locator("#best").inner_text().endswith("færdigt før.")
    _act(page, WIN[0])
    assert clock.inner_text().endswith("· 1 træk")
    page.click("#undo")
    page.wait_for_function("() => window.__spillebord.state.can_undo === false")
    assert clock.inner_text().endswith("· 0 træk"), "the count is the moves on the board"
    page.click("#redo")
    page.wait_for_function("() => window.__spillebord.state.can_undo === true")
    assert clock.inner_text().endswith("· 1 træk")
    # The clock ticks on between moves (a second's tick; 10 s: a loaded runner's timers).
    clock.filter(has_not_text="Tid 0:00").wait_for(timeout=10000)
    for move in WIN[1:]:
        _act(page, move)
    assert state(page)["outcome"]["reason"] == "won"
    page.wait_for_function("() => document.querySelector('#best').innerText.includes('Vundet')")
    best = page.locator("#best").inner_text()
    assert f"spil nr. {DEAL}" in best and "Vundet, bonus 3" in best, best
    assert f"· {len(WIN)} træk" in best and "Spillet 1 gang, 1 vundet." in best, best
    frozen = clock.inner_text()
    page.wait_for_timeout(1100)
    assert clock.inner_text() == frozen, "the clock stops when the game is over"
    shot(page, "posthus-best")
    page.goto(server + f"/replay/{first}")
    page.wait_for_selector("body[data-ready='1']")
    assert re.search(r"Spilletid \d:\d\d\.", page.locator("#summary").inner_text())
    page.go_back()
    wait_ready(page)
    page.click("#restart")
    page.wait_for_url(re.compile(r"/play/(?!" + first + r")"))
    wait_ready(page)
    assert state(page)["view"]["round"] == 1 and state(page)["clock"]["moves"] == 0
    info = api(server, "/api/matches/" + page.url.rsplit("/", 1)[1].split("#")[0])
    assert info["deal"] == DEAL and info["game"] == "posthus"
    page.wait_for_function("() => document.querySelector('#best').innerText.includes('Vundet')")


@pytest.mark.parametrize(("lang", "heading", "text"), [
    ("da", "Regler: Posthuskabalen", "Læg om"), ("en", "Rules: ", "Redeal")])
def test_rules_dialog(contexts: Any, server: str, lang: str, heading: str, text: str) -> None:
    need_game("posthus")
    page, _ = _open(contexts, server, lang)
    page.focus("#rules")
    page.keyboard.press("Enter")
    dialog = page.locator("dialog.rules-dialog")
    dialog.wait_for()
    page.wait_for_function("t => document.querySelector('.rules-body').innerText.includes(t)",
                           arg=text)
    assert dialog.locator("h2").inner_text().startswith(heading)
    assert dialog.locator("script").count() == 0
    assert "Notation" not in dialog.inner_text()
    shot(page, f"rules-{lang}")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert page.evaluate("document.activeElement.id") == "rules"
