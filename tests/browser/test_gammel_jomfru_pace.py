"""Gammel Jomfru at a pace a person can follow (issue 27, section 2): with "play forced
moves by themselves" on, each forced move of the player is sent at least ~0.6 s after the
board before it was painted (the first one too, so the first turn never passes before
the board is there), and each is read out; when the player must choose, the status line
says what the choice is ("Læg klør fem på midterbunke 1 eller på bunken hos …").

Deal 346 with two seats: the first 15 moves are forced for both seats (the bot has no
choice either), so the page meets its first real choice at move 15, always."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import api, need_game, shot, state, version, wait_after, wait_ready

pytestmark = pytest.mark.browser
DEAL = 346

# Times (performance.now) of each drawn version, and of each act the page sends with
# how many actions were legal then.
RECORD = """
window.__drawn = []; window.__sent = []; window.__heard = [];
new MutationObserver(() => { const l = document.getElementById('live');
  const said = l ? l.textContent : '';
  if (said && said !== window.__heard.at(-1)) window.__heard.push(said); })
  .observe(document, { subtree: true, childList: true, characterData: true });
new MutationObserver(() => window.__drawn.push([Number(document.body.dataset.version),
  performance.now()])).observe(document, { subtree: true,
  attributes: true, attributeFilter: ['data-version'] });
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { const m = JSON.parse(data); if (m.t === 'act') { const s = window.__spillebord.state;
    window.__sent.push([m.d.action, performance.now(), s.legal.length]); } }
  catch (e) { /* not JSON */ }
  return send.call(this, data);
};
"""

WORDS = {"da": ("Læg", "midterbunke 1", "eller", "bunken hos"),
         "en": ("Put", "centre pile 1", "or", "pile")}


@pytest.mark.parametrize(("lang", "width", "height"), [("da", 1366, 768), ("en", 390, 844)],
                         ids=["da-1366", "en-390"])
def test_forced_moves_at_a_readable_pace_and_the_choice_in_words(
        contexts: Any, server: str, lang: str, width: int, height: int) -> None:
    need_game("gammel_jomfru")
    res = api(server, "/api/matches", {"game": "gammel_jomfru", "deal": DEAL,
                                       "seats": ["me", {"bot": "random", "level": None}]})
    ctx = contexts(viewport={"width": width, "height": height}, has_touch=width < 500)
    ctx.context.add_init_script("sessionStorage.setItem('keep-autoplay', '1'); "
                                "localStorage.removeItem('spillebord.gj.autoplay'); "
                                f"localStorage.setItem('spillebord.lang', '{lang}');")
    ctx.context.add_init_script(RECORD)
    page = ctx.new_page()
    page.goto(server + res["play_url"])
    wait_ready(page)
    # The page plays the forced moves until the first choice (move 15, the player's).
    page.wait_for_function("() => { const s = window.__spillebord.state; "
                           "return s && s.legal.filter(a => a !== 'resign').length > 1; }",
                           timeout=60000)
    st = state(page)
    assert st["to_move"] == 0 and version(page) == 15, (st["to_move"], version(page))
    drawn: list[list[float]] = page.evaluate("() => window.__drawn")
    sent: list[list[Any]] = page.evaluate("() => window.__sent")
    forced = [s for s in sent if s[2] == 1]
    assert len(forced) >= 4, sent
    for _action, at, _n in forced:
        before = [d for d in drawn if d[1] <= at]
        assert before, "a forced move was sent before the board was drawn"
        gap = at - before[-1][1]
        assert gap >= 550, f"a forced move {gap:.0f} ms after the board it follows"
    # Each move was read out in the live region, the player's own forced ones too.
    heard: list[str] = page.evaluate("() => window.__heard")
    assert len(heard) >= 14, heard
    mine = [h for h in heard if h.startswith("Du " if lang == "da" else "You ")]
    assert len(mine) >= len(forced), (mine, forced)
    # The choice in words: the turned card, every place it may go, "or".
    status = page.locator("#status").inner_text()
    card = page.locator(".gj-turned .card").get_attribute("aria-label") or ""
    put, pile, either, seat = WORDS[lang]
    assert status.startswith(put) and pile in status and either in status \
        and seat in status, status
    assert card.split(": ")[-1] in status, (card, status)
    shot(page, f"gammel-jomfru-choice-{lang}-{width}")
    v = version(page)
    page.click(f"#board .target[data-action='{st['legal'][0]}']")
    wait_after(page, v)
    shot(page, f"gammel-jomfru-{lang}-{width}")
