"""The fair-deal box on the game page (issue 16): a table game shows the seal published
when the match was created; when the game is over the page fetches the reveal and
checks it in the browser (SubtleCrypto), in Danish and English, wide and on a phone.
The invite page says that deals are sealed.  Two seats are played by protocol clients in
a thread while the pages watch."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from tests.browser.helpers import api, need_game, shot, wait_ready
from tests.server.live import Client

SIZES = {"1366": {"width": 1366, "height": 768}, "390": {"width": 390, "height": 844}}


def play_out(server: str, match_id: str, tokens: list[str]) -> threading.Thread:
    ws = server.replace("http://", "ws://")

    async def paced(c: Client, rng: random.Random) -> None:
        """Random legal actions, at most one per 25 ms (the server's rate limit)."""
        sent_at = -1
        while True:
            st = await c.until(lambda s, after=sent_at: s["outcome"] is not None
                               or (bool(s["legal"]) and c.version > after), timeout=60)
            if st["outcome"] is not None:
                return
            await asyncio.sleep(0.025)
            sent_at = c.version
            await c.send("act", action=rng.choice(st["legal"]))

    async def run() -> None:
        clients = [await Client.open(ws, match_id, t) for t in tokens]
        await asyncio.gather(*(paced(c, random.Random(i)) for i, c in enumerate(clients)))
        for c in clients:
            await c.close()

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


def open_watching(contexts: Any, server: str, match_id: str, lang: str, size: str) -> Any:
    page = contexts(viewport=SIZES[size]).new_page()
    page.add_init_script(f"localStorage.setItem('spillebord.lang', '{lang}');")
    page.goto(f"{server}/play/{match_id}")
    wait_ready(page)
    return page


@pytest.mark.parametrize(("lang", "size"), [("da", "1366"), ("en", "390")])
def test_the_page_shows_the_seal_and_checks_the_reveal(contexts: Any, server: str,
                                                       lang: str, size: str) -> None:
    need_game("gammel_jomfru")
    made = api(server, "/api/matches", {"game": "gammel_jomfru", "seats": ["me", "human"]})
    claimed = api(server, f"/api/invites/{made['invites'][0]['code']}/claim", {"x": 1})
    page = open_watching(contexts, server, made["match_id"], lang, size)
    box = page.locator("#fair")
    box.locator("[data-check='sealed']").wait_for()
    text = box.inner_text()
    assert ("forseglede" in text) if lang == "da" else ("sealed" in text)
    # The raw seal and SHA-256 are folded behind "Sådan efterprøver du" (issue 27, 4).
    assert made["commitment"] not in text and "SHA-256" not in text
    box.locator("summary").click()
    assert made["commitment"] in box.inner_text()
    shot(page, f"fair-sealed-{lang}-{size}")
    thread = play_out(server, made["match_id"], [made["token"], claimed["token"]])
    box.locator("[data-check='verified']").wait_for(timeout=60000)
    thread.join(30)
    info = api(server, f"/api/matches/{made['match_id']}")
    assert made["commitment"] not in box.inner_text()
    box.locator("summary").click()
    checked = box.inner_text()
    assert info["fair"]["text"] in checked and made["commitment"] in checked
    assert str(info["fair"]["deal"]) in checked  # the exact 63-bit number, from the text
    page.locator("#outcome").scroll_into_view_if_needed()
    shot(page, f"fair-checked-{lang}-{size}")


def test_the_invite_page_says_deals_are_sealed(contexts: Any, server: str) -> None:
    need_game("gammel_jomfru")
    watched = contexts(viewport=SIZES["1366"])
    watched.allowed.append("404")  # the claim of a code that does not exist
    page = watched.new_page()
    page.goto(f"{server}/join/not-a-real-code")
    page.locator("#after").wait_for()
    assert "forsegler blandingen" in page.locator(".fair-note").first.inner_text()
    shot(page, "fair-invite-da-1366", publish=False)


def test_the_invite_page_shows_the_seal_before_taking_the_seat(contexts: Any,
                                                               server: str) -> None:
    need_game("gammel_jomfru")
    made = api(server, "/api/matches", {"game": "gammel_jomfru", "seats": ["me", "human"]})
    page = contexts(viewport=SIZES["390"]).new_page()
    page.add_init_script("localStorage.setItem('spillebord.lang', 'en');")
    page.route("**/api/invites/*/claim", lambda route: None)  # hold the claim: look first
    page.goto(f"{server}{made['invites'][0]['url']}")
    page.locator("#seal code").wait_for()
    assert page.locator("#seal").inner_text().endswith(made["commitment"])
    shot(page, "fair-invite-en-390")
