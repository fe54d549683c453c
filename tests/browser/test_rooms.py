"""Rooms in the browser: two contexts join one table by the invite link and see each
other's moves; a spectator watches; a reload and a dropped socket keep the seat; a
refused action shows the server's reason and leaves the board as it was; a broken or
used invite explains itself."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import (
    event,
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


def play_one(page: Any) -> int:
    """Play the first lit action; return the version before it."""
    wait_my_turn(page)
    st = state(page)
    action = "turn" if "turn" in st["legal"] else st["legal"][0]
    v = version(page)
    page.click(f"#board .target[data-action='{action}']")
    wait_after(page, v)
    return v


def play_turn(page: Any) -> list[int]:
    """Play until the turn passes (or the game ends); the versions before each action."""
    seqs = []
    while state(page)["legal"] and not state(page)["outcome"]:
        seqs.append(play_one(page))
    return seqs


def test_two_players_by_invite_link(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    a_ctx = contexts(viewport={"width": 1100, "height": 850})
    a = a_ctx.new_page()
    open_room(a, server, "gammel_jomfru", ["me", "human"])
    invite = a.locator(".invite[data-seat='1'] input.invite-url").input_value()
    assert "/join/" in invite

    b_ctx = contexts(viewport={"width": 390, "height": 844}, has_touch=True)
    b = b_ctx.new_page()
    b.goto(invite)
    b.wait_for_url("**/play/**")
    wait_ready(b)
    match_url = b.url
    assert b.locator("#role").is_hidden()

    watcher_ctx = contexts(viewport={"width": 1000, "height": 800})
    w = watcher_ctx.new_page()
    w.goto(match_url.split("#")[0])
    wait_ready(w)
    assert w.locator("#role").inner_text().strip() != ""
    assert w.locator(".invite").count() == 0  # invites are the creator's, not the public's

    # A wrong token: the server refuses it, the page says so and shows the game to watch.
    bad = watcher_ctx.new_page()
    bad.goto(match_url.split("#")[0] + "#token=not-a-real-token")
    bad.wait_for_selector("#messages.error")
    wait_ready(bad)
    assert "plads" in bad.inner_text("#messages")
    assert not state(bad)["legal"]
    bad.close()

    # Seat 0 plays a turn; seat 1 and the spectator see every action of it.
    seqs = play_turn(a)
    assert seqs
    last = seqs[-1] + 1
    for other in (b, w):
        other.wait_for_function("q => window.__spillebord.log.some(e => e.seq === q)", arg=last)
        assert event(other, last)["action"] == event(a, last)["action"]
    # Seat 1 reloads (the seat is kept), then plays; seat 0 sees it.
    b.reload()
    wait_ready(b)
    if not state(b)["outcome"]:
        v = play_one(b)
        a.wait_for_function("q => window.__spillebord.log.some(e => e.seq === q)", arg=v + 1)
        assert event(a, v + 1)["action"] == event(b, v + 1)["action"]
    shot(b, "room-phone")
    shot(w, "room-spectator")

    # A dropped socket reconnects by itself and keeps the seat.
    b.evaluate("() => window.__spillebord.session.drop()")
    b.wait_for_function("() => window.__spillebord.session.ws && "
                        "window.__spillebord.session.ws.readyState === 1", timeout=15000)
    b.wait_for_function("() => document.getElementById('connection').hidden")

    # A refused action: the server's reason is shown and the board does not change.
    page = a if state(a)["legal"] else b
    if state(page)["legal"]:
        board = page.inner_html("#board")
        v = version(page)
        page.evaluate("() => window.__spillebord.session.act('p7')")
        page.wait_for_selector("#messages.error")
        text = page.inner_text("#messages")
        assert "ikke tilladt" in text and "(" in text, text
        assert version(page) == v
        assert page.inner_html("#board") == board
        shot(page, "refused", publish=False)

    # The invite was single use; a made-up one explains itself too.
    c_ctx = contexts(viewport={"width": 800, "height": 600})
    c_ctx.allowed.append("status of 4")  # the API answers 404/410, as it should
    c = c_ctx.new_page()
    c.goto(invite)
    c.wait_for_selector("#messages.error")
    assert "allerede brugt" in c.inner_text("#messages")
    c.goto(server + "/join/this-is-not-an-invite")
    c.wait_for_selector("#messages.error")
    assert "findes ikke" in c.inner_text("#messages")
    shot(c, "bad-invite", publish=False)


def test_language_switch_and_four_colours(contexts: Any, server: str) -> None:
    need_game("posthus")
    page = contexts(viewport={"width": 1000, "height": 800}).new_page()
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert "Posthuskabalen" in page.inner_text("#games")
    page.select_option("#lang", "en")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Post Office" in page.inner_text("#games")
    page.click("#four-colour")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    page.select_option("#lang", "da")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.body.classList.contains('four-colour')")

    # A shared deal link opens the game with the deal number filled in.
    page.goto(server + "/?game=posthus&deal=4242")
    page.wait_for_selector("body[data-ready='1']")
    assert "4242" in page.inner_text("#shared")
    form = page.locator("form[data-game='posthus']")
    assert form.locator("input[name='deal-number']").input_value() == "4242"
    assert form.locator("input[value='number']").is_checked()
    form.locator("button[type='submit']").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    assert page.locator("#share-deal").get_attribute("href") == "/?game=posthus&deal=4242"
    # Four colours on the board: clubs and diamonds get their own colours.
    colours = page.evaluate("""() => ['C', 'D', 'H', 'S'].map(s => {
        const el = document.querySelector(`#board .card.suit-${s}`);
        return el ? getComputedStyle(el).color : null; })""")
    assert len({c for c in colours if c}) == 4, colours
