"""A declared bot account at a public table, seen in Chromium (issue 32): the lobby
(Danish desktop) and the game page's seat list (English phone) show its name marked as a
computer, never as an ordinary player."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from spillebord.research.live import LiveAgent, view_policy

from .helpers import name_myself, need_game, shot, wait_ready

pytestmark = pytest.mark.browser
GAME = "gammel_jomfru"


def first_legal(_view: dict[str, Any], legal: list[str]) -> str:
    return legal[0]


def test_a_bot_account_is_shown_as_a_computer(contexts: Any, server: str) -> None:
    need_game(GAME)
    bot_name = f"Karla{int(time.time() * 1000) % 100000}"

    async def open_table() -> str:
        async with LiveAgent(server, view_policy(first_legal), bot_name,
                             "en lang nok adgangskode 42") as agent:
            await agent.sign_in(sign_up=True, about="browser test")
            return (await agent.quick(GAME, 3)).match_id

    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        match_id = pool.submit(asyncio.run, open_table()).result()
    a = contexts(viewport={"width": 1366, "height": 768}).new_page()
    name_myself(a, server, f"Vært {bot_name[5:]}")
    a.goto(server + "/lobby")
    a.wait_for_selector("body[data-ready='1']")
    card = a.locator(f"#tables li.table-card[data-match='{match_id}']")
    card.wait_for(timeout=10000)
    assert f"{bot_name} (computer)" in card.inner_text()
    shot(a, "bot-account-lobby-da-1366")

    b = contexts(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    b.goto(server + "/")
    b.evaluate("() => localStorage.setItem('spillebord.lang', 'en')")
    name_myself(b, server, f"Phone {bot_name[5:]}")
    b.goto(server + "/lobby")
    b.wait_for_selector("body[data-ready='1']")
    b.locator(f"#tables li.table-card[data-match='{match_id}'] button.take").first.click()
    b.wait_for_url("**/play/**", timeout=30000)
    wait_ready(b)
    seat0 = b.locator("#seats li[data-seat='0']")
    seat0.wait_for()
    b.wait_for_function("n => document.querySelector(\"#seats li[data-seat='0']\")"
                        ".textContent.includes(n + ' (computer)')", arg=bot_name)
    shot(b, "bot-account-seat-en-390")
