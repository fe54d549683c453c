"""Table chat in Chromium (issue 15): two players at a Gammel Jomfru table (Danish
desktop, English phone) and a spectator; a line with markup arrives as plain text on
every screen, a quick phrase is shown in each reader's language, a muted player's
lines disappear for the one who muted, the spectator reads but cannot write, and the
replay shows the chat up to each step."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import need_game, open_room, shot, state, wait_ready

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"
MARKUP = "<b>fed</b> & <img src=x onerror=alert(1)>"
# Play the seat's first legal action whenever it is this page's turn (once a version).
AUTOPLAY = """() => { let done = -1; setInterval(() => {
  const g = window.__spillebord; const s = g.state;
  if (!s || s.outcome || !s.legal.length || g.session.version === done) return;
  done = g.session.version; g.session.act(s.legal[0]); }, 20); }"""


def chat_texts(page: Any) -> list[str]:
    texts: list[str] = page.locator("#chat-lines li .chat-text").all_inner_texts()
    return texts


def wait_line(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some(e => e.textContent === t)",
        arg=text, timeout=10000)


def test_chat_at_the_table_and_in_the_replay(contexts: Any, server: str) -> None:
    need_game(GAME)
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    open_room(a, server, GAME, ["me", "human"])
    invite = a.locator(".invite[data-seat='1'] input.invite-url").input_value()
    match_url = a.url.split("#")[0]
    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    b.goto(server + "/")
    b.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    b.goto(invite)
    b.wait_for_url("**/play/**")
    wait_ready(b)
    w = contexts(viewport={"width": 1000, "height": 800}).new_page()
    w.goto(match_url)
    wait_ready(w)
    a.wait_for_selector("#chat-text")

    # Markup is only text, on every screen.
    a.fill("#chat-text", MARKUP)
    a.locator("#chat form.chat-form button[type='submit']").click()
    for page in (a, b, w):
        wait_line(page, MARKUP)
        assert page.locator("#chat-lines b, #chat-lines img").count() == 0
    # A quick phrase, each in the reader's language.
    b.click("#chat button.chat-phrase[data-phrase='good_game']")
    wait_line(b, "Good game!")
    wait_line(a, "Godt spil!")
    # The spectator reads but has no field.
    assert w.locator("#chat-text").is_hidden()
    assert w.locator("#chat .chat-note").is_visible()
    shot(b, "chat-en-390")
    # Muting the phone's player hides its lines for the host only.
    a.locator("#chat details.chat-mutes summary").click()
    a.locator("#mute-1").check()
    assert "Godt spil!" not in chat_texts(a)
    b.fill("#chat-text", "kan du høre mig?")
    b.locator("#chat form.chat-form button[type='submit']").click()
    wait_line(b, "kan du høre mig?")
    wait_line(w, "kan du høre mig?")
    assert "kan du høre mig?" not in chat_texts(a)
    shot(a, "chat-da-1366")

    # Both players play their first legal action each turn until the game ends.
    for page in (a, b):
        page.evaluate(AUTOPLAY)
    a.wait_for_function("() => window.__spillebord.state.outcome", timeout=120000)
    assert state(a)["outcome"] is not None
    r = contexts(viewport={"width": 1200, "height": 900}).new_page()
    r.goto(match_url.replace("/play/", "/replay/"))
    r.wait_for_selector("#replay-chat:not([hidden])")
    r.keyboard.press("End")
    r.wait_for_function("t => document.querySelector('#replay-chat').textContent.includes(t)",
                        arg="kan du høre mig?")
    text = r.locator("#replay-chat").inner_text()
    assert MARKUP in text and "Godt spil!" in text
